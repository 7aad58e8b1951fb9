"""The reads a start makes, in fixed SQL (core.rows): the drill, the assignment it is
started under, and the trainee's attempts at that assignment.

Why fixed SQL: a start is the heaviest request of a trainee's loop, and a class starts
its attempts together, so its cost is paid in bursts (docs/benchmarks.md, "Issue 29").
Compiling the ORM's querysets was a quarter of it. Each read here answers exactly what
the queryset it replaces answers; tests/trainer/test_starting_reads.py holds them to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cache

from django.contrib.auth.models import AbstractBaseUser

from core.rows import columns, fetch_all, fetch_one, instance, read_value, table
from trainer.models import Assignment, Attempt, AttemptStatus, Drill, TrainingClass


def drill_active(*, drill_id: int) -> Drill | None:
    """The drill if it is active (``Drill.objects.filter(pk=…, is_active=True).first()``)."""
    row = fetch_one(_drill_sql(), [drill_id, True])
    return None if row is None else instance(Drill, row)[0]


@cache
def _drill_sql() -> str:
    return (
        f"SELECT {columns(Drill, 'd')} FROM {table(Drill)} d "  # noqa: S608 - names only
        "WHERE d.id = %s AND d.is_active = %s"
    )


def assignment_of_trainee(
    *,
    trainee: AbstractBaseUser,
    assignment_id: int | None = None,
    drill_id: int | None = None,
    mode: str | None = None,
) -> Assignment | None:
    """The trainee's first assignment (by due date) that is the one named, of the drill,
    in the mode (each when given), with its drill: assigned to them directly or through
    one of their classes, never cancelled, its drill active. The same row as
    ``trainer.selectors.attempts.assignments_for_trainee(user=…).filter(…).first()``."""
    filters = {"a.id": assignment_id, "a.drill_id": drill_id, "a.mode": mode}
    given = tuple(name for name, value in filters.items() if value is not None)
    params = [True, trainee.pk, trainee.pk, *(filters[name] for name in given)]
    row = fetch_one(_assignment_sql(given), params)
    if row is None:
        return None
    assignment, at = instance(Assignment, row)
    assignment.drill, _ = instance(Drill, row, at)
    return assignment


@cache
def _assignment_sql(given: tuple[str, ...]) -> str:
    members = TrainingClass.trainees.through
    member_class = members._meta.get_field("trainingclass").column
    member_user = members._meta.get_field("user").column
    # `given` holds only the fixed names of assignment_of_trainee's filters.
    wanted = "".join(f" AND {name} = %s" for name in given)
    return (
        f"SELECT {columns(Assignment, 'a')}, {columns(Drill, 'd')} "  # noqa: S608 - names only
        f"FROM {table(Assignment)} a JOIN {table(Drill)} d ON d.id = a.drill_id "
        "WHERE d.is_active = %s AND a.cancelled_at IS NULL "
        f'AND (a.trainee_id = %s OR a.training_class_id IN (SELECT m."{member_class}" '
        f'FROM {table(members)} m WHERE m."{member_user}" = %s)){wanted} '
        "ORDER BY a.due_at, a.id LIMIT 1"
    )


@dataclass(frozen=True)
class Sat:
    """One of the trainee's attempts at an assignment, as the sitting rules read it."""

    pk: int
    status: str
    drill_id: int
    mode: str
    submitted_at: datetime | None

    @property
    def open(self) -> bool:
        return self.status == AttemptStatus.IN_PROGRESS


def attempts_at_assignment(*, assignment_id: int, trainee_id: int) -> list[Sat]:
    """The trainee's attempts at the assignment (every sitting, open or ended), oldest
    first: the sitting rules count them, and a start resumes the open one."""
    return [
        Sat(pk, status, drill_id, mode, read_value(Attempt, "submitted_at", submitted_at))
        for pk, status, drill_id, mode, submitted_at in fetch_all(
            _sat_sql(), [assignment_id, trainee_id]
        )
    ]


@cache
def _sat_sql() -> str:
    return (
        "SELECT t.id, t.status, t.drill_id, t.mode, t.submitted_at "  # noqa: S608 - names only
        f"FROM {table(Attempt)} t WHERE t.assignment_id = %s AND t.trainee_id = %s "
        "ORDER BY t.id"
    )
