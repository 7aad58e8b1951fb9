"""Dealer draws' rounds as authored and generated, its rule parameters and skills."""

from __future__ import annotations


class DealerDrawsAuthoring:
    pass
