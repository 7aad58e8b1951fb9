"""Authoring blackjack: validating and generating its rounds, its rule parameters and the
skills it teaches."""

from __future__ import annotations


class BlackjackAuthoring:
    pass
