"""Rows a test writes outside the services (a factory's graded sitting) vouched for, as the
backfill migration vouches for the rows older than vouching (ledger.services.vouch)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ledger.services.vouch import vouched_models
from ledger.services.vouch_check import vouch_backfill


def vouch_rows() -> None:
    """Vouch for every row the vouched tables now hold, as they are."""
    vouch_backfill(specs=[(spec, None) for spec in vouched_models()])


def vouch_decisions(attempts: Iterable[Any]) -> None:
    """Vouch for the decisions of these sittings as they are (a factory's, written without
    the answer service's entries)."""
    from trainer.models import Decision
    from trainer.services.vouched import DECISIONS

    sittings = list(attempts)
    vouch_backfill(specs=[(DECISIONS, Decision.objects.filter(item__attempt__in=sittings))])
