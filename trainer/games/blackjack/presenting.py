"""Presenting blackjack: what its table and questions show."""

from __future__ import annotations


class BlackjackPresenting:
    pass
