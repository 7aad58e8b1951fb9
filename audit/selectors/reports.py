"""Reads for the compliance side: reviews, flags and sign-offs in a period, and stored reports."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from decimal import Decimal
from itertools import islice
from typing import Any

from django.db.models import QuerySet

from audit.authority import rank_label
from audit.models import Certification, ComplianceReport, ReportStatus, RetrainingFlag, Review
from audit.selectors.report_attempts import (
    local_text,
    period_bounds,
    person_named,
    signed_in_period,
)
from audit.selectors.report_decisions import QuestionWords
from audit.selectors.report_practical import SheetsRestedOn
from core.errors import NotFoundError
from core.roles import Role
from ledger.models import LedgerEntry
from trainer import labels

REVIEW_COLUMNS = (
    "reviewed_at",
    "reviewer",
    "trainee",
    "drill",
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
    "signer_rank",
    "signer_licence",
    "trainee",
    "profile",
    "attempt",
    "practical_sheet",
    "expires_at",
    "withdrawn",
    "corrects_certification",
    "flags_overridden",
    "override_reason",
    "acknowledged",
    "statement",
)


def _person(prefix: str) -> tuple[str, str, str]:
    return (f"{prefix}__first_name", f"{prefix}__last_name", f"{prefix}__username")


def report_reviews(
    *, start: dt.date, end: dt.date, chunk_size: int = 2000
) -> Iterator[tuple[Any, ...]]:
    """Reviews written in the period, oldest first, in REVIEW_COLUMNS order: people by name
    and username, the drill by its title, the question as the trainee read it, the review a
    correction corrects in words."""
    lower, upper = period_bounds(start=start, end=end)
    rows = (
        Review.objects.filter(created_at__gte=lower, created_at__lt=upper)
        .order_by("created_at", "id")
        .values_list(
            "created_at",
            *_person("reviewer"),
            *_person("grade__run__attempt__trainee"),
            "grade__run__attempt__drill__title",
            "grade__item__position",
            "grade__item_id",
            "grade__question",
            "grade__category",
            "corrects__created_at",
            *_person("corrects__reviewer"),
            "comment",
        )
        .iterator(chunk_size=chunk_size)
    )
    questions = QuestionWords()
    while batch := list(islice(rows, chunk_size)):
        questions.load(row[9] for row in batch)  # the round (item) id
        for (at, rf, rl, ru, tf, tl, tu, drill, position, item, n, category,
             corrected_at, cf, cl, cu, comment) in batch:  # fmt: skip
            corrects = (
                f"Corrects the review written {local_text(corrected_at)} "
                f"by {person_named(cf, cl, cu)}"
                if corrected_at
                else ""
            )
            yield (
                at,
                person_named(rf, rl, ru),
                person_named(tf, tl, tu),
                drill,
                position,
                questions.text(item, n),
                labels.category_label(str(category or "")),
                corrects,
                comment,
            )


def _flag_text(
    at: dt.datetime, by: tuple[str, str, str], trainee: tuple[str, str, str], reason: str
) -> str:
    return (
        f"Retraining flag raised {local_text(at, minutes=False)} by {person_named(*by)} "
        f"for {person_named(*trainee)}: {reason}"
    )


def report_flags(
    *, start: dt.date, end: dt.date, chunk_size: int = 2000
) -> Iterator[tuple[Any, ...]]:
    """Retraining flags raised or lifted in the period, oldest first, in FLAG_COLUMNS order;
    the flag an entry lifts or replaces in words."""
    lower, upper = period_bounds(start=start, end=end)
    rows = (
        RetrainingFlag.objects.filter(created_at__gte=lower, created_at__lt=upper)
        .order_by("created_at", "id")
        .values_list(
            "created_at",
            *_person("flagged_by"),
            *_person("trainee"),
            "active",
            "skills",
            "corrects__created_at",
            *_person("corrects__flagged_by"),
            "reason",
        )
        .iterator(chunk_size=chunk_size)
    )
    skill_words = labels.skill_words()
    for (at, ff, fl, fu, tf, tl, tu, active, skills, corrected_at, cf, cl, cu,
         reason) in rows:  # fmt: skip
        corrects = ""
        if corrected_at:
            verb = "Replaces" if active else "Lifts"
            corrects = (
                f"{verb} the retraining flag raised {local_text(corrected_at, minutes=False)} "
                f"by {person_named(cf, cl, cu)}"
            )
        yield (
            at,
            person_named(ff, fl, fu),
            person_named(tf, tl, tu),
            active,
            "; ".join(skill_words.get(str(s), str(s)) for s in skills or []),
            corrects,
            reason,
        )


def flags_text(flag_ids: Iterable[int]) -> str:
    """Retraining flags in words, "; " between them: "Retraining flag raised 2026-03-10 by
    Pat Boss (pboss) for Sam Dealer (sam): the reason"."""
    ids = list(flag_ids)
    if not ids:
        return ""
    flags = {
        row[0]: row
        for row in RetrainingFlag.objects.filter(pk__in=ids).values_list(
            "pk", "created_at", *_person("flagged_by"), *_person("trainee"), "reason"
        )
    }
    texts = []
    for pk in ids:
        if pk not in flags:
            texts.append("a retraining flag no longer on record")
            continue
        _, at, ff, fl, fu, tf, tl, tu, reason = flags[pk]
        texts.append(_flag_text(at, (ff, fl, fu), (tf, tl, tu), reason))
    return "; ".join(texts)


def sitting_text(drill: str | None, submitted_at: dt.datetime | None, score: Decimal | None) -> str:
    """An exam sitting in words: its drill, when it was submitted and its score."""
    if drill is None:
        return ""
    text = f"{drill}, submitted {local_text(submitted_at)}" if submitted_at else drill
    return f"{text}, score {score:.2f}%" if score is not None else text


def report_signoffs(
    *, start: dt.date, end: dt.date, chunk_size: int = 2000
) -> Iterator[tuple[Any, ...]]:
    """Certifications signed or withdrawn in the period, oldest first, in SIGNOFF_COLUMNS order:
    with the signer's role, rank and licence, the practical sheet the certification rested
    on, the expiry, the retraining flags a signer signed over and why, and the warnings they
    acknowledged, each as plain text (flags and the sitting in words, the acknowledgements
    as worded to the signer, separated by "; ")."""
    rows = (
        signed_in_period(Certification, start=start, end=end)
        .values_list(
            "signed_at",
            *_person("signed_by"),
            "signer_full_name",
            "signer_role",
            "signer_rank",
            "signer_licence",
            *_person("trainee"),
            "profile_title",
            "attempt__drill__title",
            "attempt__submitted_at",
            "attempt__score",
            "expires_at",
            "withdrawn",
            "corrects__signed_at",
            "corrects__signer_full_name",
            "flags_overridden",
            "override_reason",
            "acknowledged",
            "statement",
            "pk",
            "trainee_id",
            "profile_id",
            named=True,
        )
        .iterator(chunk_size=chunk_size)
    )
    while batch := list(islice(rows, chunk_size)):
        # A withdrawal rests on no sheet: it names the certification it withdraws.
        sheets = SheetsRestedOn()
        sheets.load(
            (row.pk, row.trainee_id, row.profile_id, row.signed_at)
            for row in batch
            if not row.withdrawn
        )
        for (signed_at, sf, sl, su, signer_full_name, role, rank, licence, tf, tl, tu, profile,
             drill, submitted_at, score, expires_at, withdrawn, corrected_at, corrected_by,
             flags, override_reason, acknowledged, statement, pk, _, _) in batch:  # fmt: skip
            yield (
                signed_at,
                person_named(sf, sl, su),
                signer_full_name,
                Role(role).label if role in set(Role) else "",
                rank_label(rank),
                licence or "",
                person_named(tf, tl, tu),
                profile,
                sitting_text(drill, submitted_at, score),
                sheets.words(pk),
                expires_at,
                withdrawn,
                (
                    f"the certification signed {local_text(corrected_at)} by {corrected_by}"
                    if corrected_at
                    else ""
                ),
                flags_text(flags or []),
                override_reason,
                "; ".join(str(text) for text in acknowledged or []),
                statement,
            )


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
