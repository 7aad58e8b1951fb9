"""Runs made as trainees' submits make them, and read back."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

from trainer.models import Attempt, GradingRun
from trainer.services.grading.request import grading_request


def submitted(attempt_of: Callable[[], Attempt], count: int) -> list[GradingRun]:
    """`count` attempts submitted one at a time, each in its own transaction, as trainees
    submit: one run each, its task queued (or not: a wake-up on its way) on its commit."""
    runs = []
    for _ in range(count):
        with transaction.atomic():
            runs.append(grading_request(attempt=attempt_of()))
    return runs


def statuses(runs: list[GradingRun]) -> list[str]:
    """The runs' statuses as the database has them now."""
    return [GradingRun.objects.get(pk=run.pk).status for run in runs]
