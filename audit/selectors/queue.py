"""The review queue: the mistakes waiting for a review across the trainees a pit boss may act
for (an administrator: everyone), oldest first.

A mistake *waits* while it is a wrong answer of the current grading run, answered (so put
to the trainee: a question never shown is not reviewed, and one left unanswered is counted
among "Not answered" instead), and no review of it exists yet. Whose mistakes is the
caller's: `trainer.selectors.visibility.trainees_actable_by` (never the viewer's own).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet

from audit.models import Review
from audit.selectors.grades import StatsFilter, Trainees, grades_list
from trainer.labels import unreviewed_categories
from trainer.models import Grade

QUEUE_PER_PAGE = 25


@dataclass(frozen=True)
class QueueFilter:
    """What the queue is narrowed to (all optional): a table (its rule profile's name), a
    skill, one trainee."""

    profile: str | None = None
    skill: str | None = None
    trainee_id: int | None = None

    def as_stats_filter(self) -> StatsFilter:
        return StatsFilter(profile=self.profile, skill=self.skill, trainee_id=self.trainee_id)


# Oldest first: the sitting's submission, then the round and the question within it.
ORDER = (
    F("run__attempt__submitted_at").asc(nulls_first=True),
    "run__attempt_id",
    "item__position",
    "question",
)


def waiting_reviews(*, trainees: Trainees, filters: QueueFilter | None = None) -> QuerySet[Grade]:
    """The mistakes of these trainees that wait for a review, narrowed by ``filters``."""
    filters = filters or QueueFilter()
    return (
        grades_list(trainees=trainees, filters=filters.as_stats_filter())
        .filter(correct=False, decision__isnull=False)
        .exclude(category__in=unreviewed_categories())
        .exclude(Exists(Review.objects.filter(grade_id=OuterRef("pk"))))
    )


def queue_rows(grades: QuerySet[Grade]) -> QuerySet[Grade]:
    """The queue in its order, with what a row shows loaded alongside (not the rounds' JSON)."""
    return (
        grades.select_related(
            "run__attempt__trainee", "run__attempt__drill", "item__profile_version__profile"
        )
        .only(
            "id",
            "question",
            "kind",
            "category",
            "money_diff",
            "points_diff",
            "run__id",
            "run__attempt__id",
            "run__attempt__submitted_at",
            "run__attempt__mode",
            "run__attempt__trainee__id",
            "run__attempt__trainee__username",
            "run__attempt__trainee__first_name",
            "run__attempt__trainee__last_name",
            "run__attempt__drill__id",
            "run__attempt__drill__title",
            "run__attempt__drill__game",
            "item__id",
            "item__position",
            "item__profile_version__id",
            "item__profile_version__profile__id",
            "item__profile_version__profile__name",
            "item__profile_version__profile__title",
        )
        .order_by(*ORDER)
    )


def queue_next(
    *, trainees: Trainees, filters: QueueFilter | None = None, after: Grade | None = None
) -> int | None:
    """The mistake to review next: the first waiting one after ``after`` in the queue's
    order, else (the end reached, earlier ones skipped) the first waiting one that is not
    ``after``; None when nothing else waits."""
    waiting = waiting_reviews(trainees=trainees, filters=filters)
    if after is not None:
        waiting = waiting.exclude(pk=after.pk)
        later = _after(after)
        if later is not None:
            found = waiting.filter(later).order_by(*ORDER).values_list("pk", flat=True).first()
            if found is not None:
                return found
    return waiting.order_by(*ORDER).values_list("pk", flat=True).first()


def _after(grade: Grade) -> Q | None:
    """The grades after ``grade`` in the queue's order (None: its sitting has no time)."""
    attempt = grade.run.attempt
    submitted = attempt.submitted_at
    if submitted is None:
        return None
    position = grade.item.position
    return (
        Q(run__attempt__submitted_at__gt=submitted)
        | Q(run__attempt__submitted_at=submitted, run__attempt_id__gt=attempt.pk)
        | Q(run__attempt_id=attempt.pk, item__position__gt=position)
        | Q(run__attempt_id=attempt.pk, item__position=position, question__gt=grade.question)
    )


def waiting_counts(*, trainees: Trainees) -> dict[int, int]:
    """How many mistakes wait for a review, per trainee (those with none left out): one
    query, for the dashboard's count and its rows."""
    rows: Any = (
        waiting_reviews(trainees=trainees)
        .order_by()
        .values("run__attempt__trainee_id")
        .annotate(waiting=Count("pk"))
        .values_list("run__attempt__trainee_id", "waiting")
    )
    return dict(rows)
