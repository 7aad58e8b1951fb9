"""Reads of the audit side's records: reviews, retraining flags and certifications.

An entry is *in force* while no later entry corrects it: a review with no correction, a
flag not lifted, a certification not withdrawn (and, for a certification, not expired).

Over 400 lines on purpose: the standings, the training record and the refreshers all read
"in force" by the rule above, which one module keeps in one place.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Prefetch
from django.utils import timezone

from audit.certification import CertificationRule, SignOffCheck, profile_label, sign_off_check
from audit.models import Certification, Refresher, RetrainingFlag, Review
from audit.selectors.evidence import AttemptEvidence, exam_evidence
from audit.selectors.graded_cache import graded_versions, per_trainee
from ledger.chain import GENESIS_HASH
from ledger.models import LedgerHead
from trainer.models import Attempt, Drill, GradingStatus, RuleProfile


def reviews_of_grade(*, grade_id: int) -> list[Review]:
    """Every review of one mistake, oldest first, each with what corrects it."""
    return list(
        Review.objects.filter(grade_id=grade_id)
        .select_related("reviewer", "corrects")
        .prefetch_related(Prefetch("corrections", queryset=Review.objects.only("id", "corrects")))
        .order_by("created_at", "pk")
    )


def reviews_for_trainee(*, trainee_id: int, limit: int = 50) -> list[Review]:
    """The pit's comments on a trainee's graded answers, newest first, as the trainee reads
    them: each with the answer it is about. A correction is listed with the comment it
    replaces left out."""
    corrected = Review.objects.filter(corrects__isnull=False).values("corrects_id")
    return list(
        Review.objects.filter(grade__run__attempt__trainee_id=trainee_id)
        .exclude(pk__in=corrected)
        .select_related("reviewer", "grade__item", "grade__run__attempt__drill")
        .order_by("-created_at", "-pk")[:limit]
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


def certification_history(*, trainee_id: int) -> list[Certification]:
    return list(
        Certification.objects.filter(trainee_id=trainee_id)
        .select_related("profile", "signed_by", "corrects", "certificate")
        .prefetch_related("corrections")
        .order_by("-signed_at", "-pk")
    )


# Where each trainee stands, table by table.

# A certification this close to its expiry shows as expiring.
EXPIRY_WARNING = timedelta(days=30)


class TableStanding(StrEnum):
    """Where a trainee stands at one table (rule profile), as the pit reads it."""

    CERTIFIED = "certified"
    EXPIRING = "expiring"
    EXPIRED = "expired"
    WITHDRAWN = "withdrawn"
    PASSED = "passed"  # a sitting qualifies and nobody has signed on it yet
    NOT_PASSED = "not_passed"  # sat the table test, no sitting qualifies
    NOT_SAT = "not_sat"

    @property
    def label(self) -> str:
        return {
            TableStanding.CERTIFIED: "certified",
            TableStanding.EXPIRING: "certified, expiring soon",
            TableStanding.EXPIRED: "expired",
            TableStanding.WITHDRAWN: "withdrawn",
            TableStanding.PASSED: "passed, not signed",
            TableStanding.NOT_PASSED: "not passed",
            TableStanding.NOT_SAT: "not sat",
        }[self]


@dataclass(frozen=True)
class TableState:
    """A trainee's standing at one table. ``when`` is the date that goes with it: the
    expiry (certified, expiring, expired), the withdrawal, or the sitting (passed, not
    passed). ``ready`` is a sitting a pit boss may sign on (also a renewal while certified).
    """

    profile_id: int
    profile: str
    standing: TableStanding
    when: datetime | None = None
    ready: int | None = None


@dataclass(frozen=True)
class Sitting:
    """A graded exam sitting, and what stands between it and a certification of its table."""

    evidence: AttemptEvidence
    drill: Drill
    check: SignOffCheck


@dataclass
class CertificationOverview:
    """Per trainee: their standing at each table they have a record at (sorted by table),
    and their exam sittings, newest first."""

    states: dict[int, list[TableState]] = field(default_factory=dict)
    sittings: dict[int, list[Sitting]] = field(default_factory=dict)


def certification_overview(
    *,
    trainee_ids: Iterable[int],
    rule: CertificationRule,
    flags: Mapping[int, Sequence[RetrainingFlag]] | None = None,
    now: datetime | None = None,
) -> CertificationOverview:
    """Each trainee's standing per table, and their sittings with what a sign-off on each
    would meet (the flags in force are the caller's, when it has read them).

    Never cached: a signature, a withdrawal and the clock change a standing without a
    grading. The sittings' figures come from exam_evidence (cached with the graded
    work); the drills and the certifications are read here, one query each.
    """
    ids = sorted(set(trainee_ids))
    now = now or timezone.now()
    evidence = exam_evidence(trainee_ids=ids)
    drill_ids = {e.drill_id for rows in evidence.values() for e in rows if e.drill_id is not None}
    drills = (
        {
            drill.pk: drill
            for drill in Drill.objects.filter(pk__in=drill_ids).select_related(
                "certifies", "profile_version__profile"
            )
        }
        if drill_ids
        else {}
    )
    certifications: dict[int, list[Certification]] = defaultdict(list)
    if ids:
        for cert in Certification.objects.filter(trainee_id__in=ids).select_related("profile"):
            certifications[cert.trainee_id].append(cert)
    overview = CertificationOverview()
    for trainee_id in ids:
        own = certifications.get(trainee_id, [])
        sittings = [
            Sitting(
                e,
                drills[e.drill_id],
                sign_off_check(
                    rule=rule,
                    evidence=e,
                    drill=drills[e.drill_id],
                    profile=None,
                    certifications=own,
                    flags=(flags or {}).get(trainee_id, ()),
                ),
            )
            for e in evidence.get(trainee_id, [])
            if e.drill_id in drills
        ]
        overview.sittings[trainee_id] = sittings
        overview.states[trainee_id] = _standings(own, sittings, now)
    return overview


def table_states(
    *, trainee_ids: Iterable[int], rule: CertificationRule, now: datetime | None = None
) -> dict[int, list[TableState]]:
    """certification_overview's standings alone, kept in the cache per trainee: for a page
    of two hundred trainees, deciding each sitting's sign-off costs more than the page.

    A trainee's standings change with a grading of their work, a signature or withdrawal
    (any change to their certification rows), a table's name or title, the rule, and the
    clock only as one of their certifications comes within EXPIRY_WARNING of its expiry or
    expires. The key holds all of these, read fresh: the graded version, the certification
    rows, how many of those moments have passed, the tables and the rule. Three short
    queries when every trainee's standings are cached.
    """
    ids = sorted(set(trainee_ids))
    if not ids:
        return {}
    now = now or timezone.now()
    # Read before the standings are: what is kept under them is then never older.
    graded = graded_versions(ids)
    rows: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for trainee_id, *row in (
        Certification.objects.filter(trainee_id__in=ids)
        .order_by("pk")
        .values_list(
            "trainee_id",
            "pk",
            "profile_id",
            "attempt_id",
            "signed_at",
            "expires_at",
            "withdrawn",
            "corrects_id",
        )
    ):
        rows[trainee_id].append(tuple(row))
    versions = {}
    for trainee_id in ids:
        own = rows.get(trainee_id, [])
        if trainee_id not in graded and not own:
            continue  # no sitting and no certification: no standing anywhere
        expiries = [row[4] for row in own if row[4] is not None]
        passed = sum(now >= e - EXPIRY_WARNING for e in expiries) + sum(now >= e for e in expiries)
        signed = hashlib.sha256(repr(own).encode()).hexdigest()[:16]
        versions[trainee_id] = f"{graded.get(trainee_id, '-')}.{signed}.{passed}"
    tables = list(RuleProfile.objects.order_by("pk").values_list("pk", "name", "title"))
    nothing: list[TableState] = []
    return per_trainee(
        "table-states",
        versions,
        (rule, tables),
        lambda missing: certification_overview(trainee_ids=missing, rule=rule, now=now).states,
        nothing,
    )


def _standings(
    certifications: list[Certification], sittings: list[Sitting], now: datetime
) -> list[TableState]:
    labels: dict[int, str] = {}
    by_profile: dict[int, list[Certification]] = defaultdict(list)
    for cert in certifications:
        by_profile[cert.profile_id].append(cert)
        labels[cert.profile_id] = profile_label(cert.profile)
    sat: dict[int, list[Sitting]] = defaultdict(list)
    for sitting in sittings:
        table = sitting.drill.certifies
        if table is not None:
            sat[table.pk].append(sitting)
            labels[table.pk] = profile_label(table)
    states = [
        _standing(profile_id, labels[profile_id], by_profile[profile_id], sat[profile_id], now)
        for profile_id in set(by_profile) | set(sat)
    ]
    return sorted(states, key=lambda s: s.profile.lower())


def _standing(
    profile_id: int, label: str, certs: list[Certification], sat: list[Sitting], now: datetime
) -> TableState:
    withdrawals = {c.corrects_id: c for c in certs if c.withdrawn}
    signed = [c for c in certs if not c.withdrawn]
    in_force = [
        c
        for c in signed
        if c.pk not in withdrawals and (c.expires_at is None or c.expires_at > now)
    ]
    # Sittings come newest first: the newest that qualifies is the one to sign on.
    ready = next((s for s in sat if s.check.signable), None)
    ready_id = ready.evidence.attempt_id if ready else None
    if in_force:
        # Certifications signed before expiry existed have none: they never lapse.
        lasting = max(in_force, key=lambda c: (c.expires_at is None, c.expires_at or now))
        expires = lasting.expires_at
        near = expires is not None and expires - now <= EXPIRY_WARNING
        standing = TableStanding.EXPIRING if near else TableStanding.CERTIFIED
        return TableState(profile_id, label, standing, expires, ready_id)
    if ready is not None:
        return TableState(
            profile_id, label, TableStanding.PASSED, ready.evidence.submitted_at, ready_id
        )
    if signed:
        last = max(signed, key=lambda c: (c.signed_at, c.pk))
        if last.pk in withdrawals:
            withdrawn = withdrawals[last.pk]
            return TableState(profile_id, label, TableStanding.WITHDRAWN, withdrawn.signed_at)
        return TableState(profile_id, label, TableStanding.EXPIRED, last.expires_at)
    last_sat = sat[0].evidence.submitted_at if sat else None
    return TableState(profile_id, label, TableStanding.NOT_PASSED, last_sat)


def standings_at_every_table(*, states: Sequence[TableState]) -> list[TableState]:
    """A trainee's standings (as certification_overview gives them) and "not sat" at every
    other table, sorted by table."""
    known = {state.profile_id for state in states}
    others = [
        TableState(profile.pk, profile_label(profile), TableStanding.NOT_SAT)
        for profile in RuleProfile.objects.exclude(pk__in=known)
    ]
    return sorted([*states, *others], key=lambda s: s.profile.lower())


# The training record.


def ledger_head() -> tuple[int, str]:
    """The ledger's newest entry number and hash (0 and the genesis hash while empty)."""
    head = LedgerHead.objects.filter(id=1).values_list("sequence", "hash").first()
    return head if head is not None else (0, GENESIS_HASH)


@dataclass(frozen=True)
class FlagRecord:
    """A retraining flag as raised, and the entries that lifted or replaced it."""

    flag: RetrainingFlag
    corrections: list[RetrainingFlag]


@dataclass(frozen=True)
class SignatureRecord:
    """A signed certification and its withdrawal, if it was withdrawn."""

    certification: Certification
    withdrawal: Certification | None


@dataclass(frozen=True)
class TrainingRecord:
    """What a trainee's training record holds, oldest first within each part."""

    trainee: Any
    classes: list[str]
    states: list[TableState]
    sittings: list[Sitting]
    tables_by_name: dict[str, str]
    signatures: list[SignatureRecord]
    flags: list[FlagRecord]


def training_record(*, trainee_id: int, rule: CertificationRule) -> TrainingRecord:
    """Everything the personnel file's training record shows of one trainee."""
    trainee = get_user_model().objects.get(pk=trainee_id)
    overview = certification_overview(
        trainee_ids=[trainee_id],
        rule=rule,
        flags={trainee_id: flags_in_force(trainee_ids=[trainee_id]).get(trainee_id, [])},
    )
    rows = list(
        Certification.objects.filter(trainee_id=trainee_id)
        .select_related("profile", "signed_by")
        .order_by("signed_at", "pk")
    )
    withdrawals = {c.corrects_id: c for c in rows if c.withdrawn}
    flags = list(
        RetrainingFlag.objects.filter(trainee_id=trainee_id)
        .select_related("flagged_by")
        .order_by("created_at", "pk")
    )
    corrections: dict[int, list[RetrainingFlag]] = defaultdict(list)
    for flag in flags:
        if flag.corrects_id is not None:
            corrections[flag.corrects_id].append(flag)
    return TrainingRecord(
        trainee=trainee,
        classes=list(trainee.classes_attended.order_by("name").values_list("name", flat=True)),
        states=overview.states.get(trainee_id, []),
        sittings=list(reversed(overview.sittings.get(trainee_id, []))),
        tables_by_name={p.name: profile_label(p) for p in RuleProfile.objects.all()},
        signatures=[SignatureRecord(c, withdrawals.get(c.pk)) for c in rows if not c.withdrawn],
        flags=[FlagRecord(f, corrections[f.pk]) for f in flags if f.corrects_id is None],
    )


# Remediation: refreshers and their results.


@dataclass(frozen=True)
class RefresherResult:
    """A refresher and how it went: its latest graded attempt (None: not graded yet)."""

    refresher: Refresher
    score: Any = None
    passed: bool | None = None
    graded_at: datetime | None = None
    attempts: int = 0

    @property
    def evidence(self) -> dict[str, object]:
        return {
            "refresher_id": self.refresher.pk,
            "assignment_id": self.refresher.assignment_id,
            "skills": self.refresher.skills,
            "attempts": self.attempts,
            "score": str(self.score) if self.score is not None else None,
            "passed": self.passed,
            "graded_at": self.graded_at,
        }


def refresher_results(*, trainee_id: int) -> list[RefresherResult]:
    """The trainee's refreshers, newest first, each with its latest graded attempt: two
    queries however many (one when there is none)."""
    refreshers = list(
        Refresher.objects.filter(trainee_id=trainee_id)
        .select_related("assignment__drill")
        .order_by("-created_at", "-pk")
    )
    latest: dict[int, Attempt] = {}
    counts: dict[int, int] = defaultdict(int)
    attempts = (
        Attempt.objects.filter(
            assignment_id__in=[r.assignment_id for r in refreshers], trainee_id=trainee_id
        ).order_by("graded_at", "pk")
        if refreshers
        else Attempt.objects.none()
    )
    for attempt in attempts:
        assert attempt.assignment_id is not None
        counts[attempt.assignment_id] += 1
        if attempt.grading_status == GradingStatus.GRADED:
            latest[attempt.assignment_id] = attempt
    out = []
    for refresher in refreshers:
        graded = latest.get(refresher.assignment_id)
        out.append(
            RefresherResult(
                refresher=refresher,
                score=graded.score if graded else None,
                passed=graded.passed if graded else None,
                graded_at=graded.graded_at if graded else None,
                attempts=counts[refresher.assignment_id],
            )
        )
    return out


def refreshers_by_flag(results: Sequence[RefresherResult]) -> dict[int, list[RefresherResult]]:
    """The results keyed by the flag each refresher answers (a lift shows its flag's)."""
    by_flag: dict[int, list[RefresherResult]] = defaultdict(list)
    for result in results:
        if result.refresher.flag_id is not None:
            by_flag[result.refresher.flag_id].append(result)
    return dict(by_flag)


def flags_with_refreshers(
    flags: Sequence[RetrainingFlag], results: Sequence[RefresherResult]
) -> list[tuple[RetrainingFlag, list[RefresherResult]]]:
    """Each flag with its refreshers' results; a lift with those of the flag it lifts (the
    evidence it rests on)."""
    by_flag = refreshers_by_flag(results)
    return [
        (flag, by_flag.get(flag.pk if flag.active else flag.corrects_id or 0, [])) for flag in flags
    ]
