"""Reads of the audit side's records: reviews, retraining flags and certifications.

An entry is *in force* while no later entry corrects it: a review with no correction, a
flag not lifted, a certification not withdrawn.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.db.models import Prefetch

from audit.models import Certification, RetrainingFlag, Review


def reviews_of_grade(*, grade_id: int) -> list[Review]:
    """Every review of one mistake, oldest first, each with what corrects it."""
    return list(
        Review.objects.filter(grade_id=grade_id)
        .select_related("reviewer", "corrects")
        .prefetch_related(Prefetch("corrections", queryset=Review.objects.only("id", "corrects")))
        .order_by("created_at", "pk")
    )


def reviewed_grade_ids(*, grade_ids: Iterable[int]) -> set[int]:
    """Of these grades, those that have at least one review."""
    return set(
        Review.objects.filter(grade_id__in=list(grade_ids)).values_list("grade_id", flat=True)
    )


def flags_in_force(*, trainee_ids: Iterable[int]) -> dict[int, list[RetrainingFlag]]:
    """The trainees' retraining flags that no later entry lifted."""
    flags: dict[int, list[RetrainingFlag]] = defaultdict(list)
    rows = (
        RetrainingFlag.objects.filter(
            trainee_id__in=list(trainee_ids), active=True, corrections__isnull=True
        )
        .select_related("flagged_by")
        .order_by("-created_at", "-pk")
    )
    for flag in rows:
        flags[flag.trainee_id].append(flag)
    return flags


def flag_history(*, trainee_id: int) -> list[RetrainingFlag]:
    return list(
        RetrainingFlag.objects.filter(trainee_id=trainee_id)
        .select_related("flagged_by", "corrects")
        .order_by("-created_at", "-pk")
    )


def certifications_in_force(*, trainee_ids: Iterable[int]) -> dict[int, list[Certification]]:
    """The trainees' certifications that have not been withdrawn."""
    certs: dict[int, list[Certification]] = defaultdict(list)
    rows = (
        Certification.objects.filter(
            trainee_id__in=list(trainee_ids), withdrawn=False, corrections__isnull=True
        )
        .select_related("profile")
        .order_by("-signed_at", "-pk")
    )
    for cert in rows:
        certs[cert.trainee_id].append(cert)
    return certs


def certification_history(*, trainee_id: int) -> list[Certification]:
    return list(
        Certification.objects.filter(trainee_id=trainee_id)
        .select_related("profile", "signed_by", "corrects")
        .prefetch_related("corrections")
        .order_by("-signed_at", "-pk")
    )
