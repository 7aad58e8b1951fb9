"""A grading run's lease: how long a worker that started a run may go unseen, and the bound
in which a killed worker's runs are queued again.

A worker that starts grading a run stamps `claimed_until` (now + the lease); its grading
transaction then holds the run's row lock until it commits, which is the worker's
heartbeat: PostgreSQL releases the lock the moment the worker's connection closes. The
sweep (trainer.services.grading.sweep), every SHOESCHOOL_GRADING_SWEEP_SECONDS, queues again
a run still grading whose lease ran out and whose row nobody holds. So a run is queued again
at most a lease plus one sweep interval after its worker died.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings


def grading_lease() -> timedelta:
    """How long a run started by a worker is left to it before the sweep may take it back."""
    return timedelta(seconds=settings.SHOESCHOOL_GRADING_LEASE_SECONDS)


def grading_sweep_interval() -> timedelta:
    """How often celery beat runs the grading sweep (config.settings.celery)."""
    return timedelta(seconds=settings.SHOESCHOOL_GRADING_SWEEP_SECONDS)


def grading_fault_bound() -> timedelta:
    """The longest a killed worker's started run waits before it is queued again: its lease
    (taken at the latest when the worker died) plus one sweep interval."""
    return grading_lease() + grading_sweep_interval()
