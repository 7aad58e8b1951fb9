"""Reads for the compliance side: reviews, flags and sign-offs in a period, and stored reports."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import CharField, QuerySet, Value
from django.db.models.functions import Coalesce, NullIf

from audit.models import Certification, ComplianceReport, ReportStatus, RetrainingFlag, Review
from core.errors import NotFoundError
from core.roles import Role
from ledger.models import LedgerEntry
from trainer import words
from trainer.models import Skill
from trainer.selectors.reports import period_bounds

_SKILLS = dict(Skill.choices)

REVIEW_COLUMNS = (
    "reviewed_at",
    "reviewer",
    "trainee",
    "attempt",
    "round",
    "question",
    "category",
    "corrects_review",
    "comment",
)
FLAG_COLUMNS = (
    "flagged_at",
    "flagged_by",
    "trainee",
    "active",
    "skills",
    "corrects_flag",
    "reason",
)
SIGNOFF_COLUMNS = (
    "signed_at",
    "signed_by",
    "signer_full_name",
    "signer_role",
    "trainee",
    "profile",
    "attempt",
    "expires_at",
    "withdrawn",
    "corrects_certification",
    "flags_overridden",
    "override_reason",
    "acknowledged",
    "statement",
)


def report_reviews(
    *, start: dt.date, end: dt.date, chunk_size: int = 2000
) -> Iterator[tuple[Any, ...]]:
    """Reviews written in the period, oldest first, in REVIEW_COLUMNS order."""
    lower, upper = period_bounds(start=start, end=end)
    rows = (
        Review.objects.filter(created_at__gte=lower, created_at__lt=upper)
        .order_by("created_at", "id")
        .values_list(
            "created_at",
            "reviewer__username",
            "grade__run__attempt__trainee__username",
            "grade__run__attempt_id",
            "grade__item__position",
            "grade__question",
            "grade__category",
            "corrects_id",
            "comment",
        )
        .iterator(chunk_size=chunk_size)
    )
    category_at = REVIEW_COLUMNS.index("category")
    for row in rows:
        cells = list(row)
        cells[category_at] = words.category_label(str(cells[category_at] or ""))
        yield tuple(cells)


def report_flags(
    *, start: dt.date, end: dt.date, chunk_size: int = 2000
) -> Iterator[tuple[Any, ...]]:
    """Retraining flags raised or lifted in the period, oldest first, in FLAG_COLUMNS order."""
    lower, upper = period_bounds(start=start, end=end)
    rows = (
        RetrainingFlag.objects.filter(created_at__gte=lower, created_at__lt=upper)
        .order_by("created_at", "id")
        .values_list(
            "created_at",
            "flagged_by__username",
            "trainee__username",
            "active",
            "skills",
            "corrects_id",
            "reason",
        )
        .iterator(chunk_size=chunk_size)
    )
    skills_at = FLAG_COLUMNS.index("skills")
    for row in rows:
        cells = list(row)
        cells[skills_at] = "; ".join(_SKILLS.get(str(s), str(s)) for s in cells[skills_at] or [])
        yield tuple(cells)


def report_signoffs(
    *, start: dt.date, end: dt.date, chunk_size: int = 2000
) -> Iterator[tuple[Any, ...]]:
    """Certifications signed or withdrawn in the period, oldest first, in SIGNOFF_COLUMNS order:
    with the signer's role, the expiry, the retraining flags a signer signed over and why,
    and the warnings they acknowledged, each as plain text (flags as their numbers, the
    acknowledgements as worded to the signer, separated by "; ")."""
    lower, upper = period_bounds(start=start, end=end)
    rows = (
        Certification.objects.filter(signed_at__gte=lower, signed_at__lt=upper)
        .order_by("signed_at", "id")
        # A profile by its title, as people know it (its name is the program's).
        .annotate(
            profile_title=Coalesce(
                NullIf("profile__title", Value("")), "profile__name", output_field=CharField()
            )
        )
        .values_list(
            "signed_at",
            "signed_by__username",
            "signer_full_name",
            "signer_role",
            "trainee__username",
            "profile_title",
            "attempt_id",
            "expires_at",
            "withdrawn",
            "corrects_id",
            "flags_overridden",
            "override_reason",
            "acknowledged",
            "statement",
        )
        .iterator(chunk_size=chunk_size)
    )
    role_at = SIGNOFF_COLUMNS.index("signer_role")
    flags_at = SIGNOFF_COLUMNS.index("flags_overridden")
    acknowledged_at = SIGNOFF_COLUMNS.index("acknowledged")
    for row in rows:
        cells = list(row)
        cells[role_at] = Role(cells[role_at]).label if cells[role_at] in set(Role) else ""
        cells[flags_at] = ", ".join(f"flag #{pk}" for pk in cells[flags_at] or [])
        cells[acknowledged_at] = "; ".join(str(text) for text in cells[acknowledged_at] or [])
        yield tuple(cells)


def compliance_reports_list(*, limit: int = 100) -> QuerySet[ComplianceReport]:
    """The newest reports first, with who asked for them."""
    return ComplianceReport.objects.select_related("requested_by").order_by("-requested_at", "-id")[
        :limit
    ]


def compliance_report_get(*, report_id: int) -> ComplianceReport:
    try:
        return ComplianceReport.objects.select_related("requested_by").get(pk=report_id)
    except ComplianceReport.DoesNotExist:
        raise NotFoundError("no such report") from None


def reports_ledger_heads() -> QuerySet[ComplianceReport]:
    """Every ready report that states a ledger head, oldest first: anchors of the ledger."""
    return (
        ComplianceReport.objects.filter(status=ReportStatus.READY)
        .exclude(ledger_head_hash="")
        .only(
            "period_start",
            "period_end",
            "requested_at",
            "finished_at",
            "ledger_entries",
            "ledger_head_hash",
        )
        .order_by("pk")
    )


def ledger_positions(*, hashes: Iterable[str]) -> dict[str, int]:
    """The sequence of the ledger entry holding each of these hashes, for those that exist."""
    return dict(LedgerEntry.objects.filter(hash__in=list(hashes)).values_list("hash", "sequence"))
