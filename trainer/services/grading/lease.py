"""A grading run's lease: how long a worker that started a run may go unseen, and the bound
in which a killed worker's runs are queued again.

A worker that starts grading a run stamps `claimed_until` (now + the lease); its grading
transaction then holds the run's row lock until it commits, which is the worker's
heartbeat: PostgreSQL releases the lock the moment the worker's connection closes. The
sweep (trainer.services.grading.sweep), every SHOESCHOOL_GRADING_SWEEP_SECONDS, queues again
a run still grading whose lease ran out and whose row nobody holds. So a started run is
queued again at most a lease plus one sweep interval after its worker died.

A worker also holds tasks it received and has not started: with acks_late they stay in
the broker's unacked set until the visibility timeout (a retry's countdown, a message
prefetched while the pool was busy). Their runs are still pending, and the sweep queues
again a run pending for longer than SHOESCHOOL_GRADING_TIMEOUT_SECONDS: that is the
bound for them, with the same sweep. The message itself comes back later and finds its
run graded (the claim is atomic: a run is graded once). docs/operations.md says why the
visibility timeout is not shortened instead.
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


def grading_timeout() -> timedelta:
    """How long a run may sit pending (its task not started) before the sweep queues it
    again."""
    return timedelta(seconds=settings.SHOESCHOOL_GRADING_TIMEOUT_SECONDS)


def grading_fault_bound() -> timedelta:
    """The longest a killed worker's run waits before it is queued again: a started run its
    lease (taken at the latest when the worker died), a run whose task it had received and
    not started the pending timeout (queued before the worker died); then one sweep
    interval."""
    return max(grading_lease(), grading_timeout()) + grading_sweep_interval()
