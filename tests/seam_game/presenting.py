"""Dealer draws' table and questions as the shell shows them."""

from __future__ import annotations


class DealerDrawsPresenting:
    pass
