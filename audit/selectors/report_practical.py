"""The compliance report's practical tests: the evaluation sheets signed in a period, each
in words (what was ticked, timed and scored, the result and the signature), and for the
certifications of the period the sheet each rested on."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from audit.authority import signature_text
from audit.models import PracticalSheet
from audit.selectors.report_attempts import local_text, person_named, signed_in_period
from trainer.games.observing import SheetTemplate, timed_met

PRACTICAL_COLUMNS = (
    "signed_at",
    "evaluated_by",
    "evaluator_signature",
    "trainee",
    "profile",
    "passed",
    "score_percent",
    "pass_mark_percent",
    "procedures",
    "timed_items",
    "rubric",
    "shortfalls",
    "comments",
    "corrects_sheet",
)


def _seconds(value: Any) -> Decimal | None:
    try:
        return None if value in (None, "") else Decimal(str(value))
    except InvalidOperation:
        return None


def sheet_marks_words(
    template: Mapping[str, Any], marks: Mapping[str, Any]
) -> tuple[str, str, str]:
    """A signed sheet's marks as a person reads them: the procedure steps, the timed items
    and the rubric lines, each "; "-separated, in the sheet's order."""
    sheet = SheetTemplate.from_dict(template)
    done = marks.get("procedures", {})
    procedures = "; ".join(
        f"{item.words}{' (critical)' if item.critical else ''}: "
        f"{'done right' if done.get(item.code) else 'not done right'}"
        for item in sheet.procedures
    )
    times = marks.get("timed", {})
    timed = []
    for item in sheet.timed:
        seconds = _seconds(times.get(item.code))
        took = "not timed" if seconds is None else f"{seconds} s"
        met = "met" if timed_met(item, seconds) else "not met"
        critical = " (critical)" if item.critical else ""
        timed.append(f"{item.words}{critical}: {took}, target under {item.target_seconds} s, {met}")
    scores = marks.get("rubric", {})
    rubric = "; ".join(
        f"{line.words}: {scores.get(line.code, 0)} of 10, weight {line.weight}"
        for line in sheet.rubric
    )
    return procedures, "; ".join(timed), rubric


def _sheet_signature(signed_at: dt.datetime, name: str, rank: str, licence: str) -> str:
    return f"the sheet signed {local_text(signed_at)} by {signature_text(name, rank, licence)}"


def report_practical_sheets(
    *, start: dt.date, end: dt.date, chunk_size: int = 2000
) -> Iterator[tuple[Any, ...]]:
    """Practical evaluation sheets signed in the period, oldest first, in PRACTICAL_COLUMNS
    order."""
    rows = (
        signed_in_period(PracticalSheet, start=start, end=end)
        .values_list(
            "signed_at",
            "evaluator__first_name",
            "evaluator__last_name",
            "evaluator__username",
            "evaluator_full_name",
            "evaluator_rank",
            "evaluator_licence",
            "trainee__first_name",
            "trainee__last_name",
            "trainee__username",
            "profile_title",
            "passed",
            "score",
            "template",
            "marks",
            "shortfalls",
            "comments",
            "corrects__signed_at",
            "corrects__evaluator_full_name",
            "corrects__evaluator_rank",
            "corrects__evaluator_licence",
        )
        .iterator(chunk_size=chunk_size)
    )
    for (signed_at, ef, el, eu, name, rank, licence, tf, tl, tu, profile, passed, score,
         template, marks, shortfalls, comments, corrected_at, cname, crank,
         clicence) in rows:  # fmt: skip
        procedures, timed, rubric = sheet_marks_words(template, marks)
        yield (
            signed_at,
            person_named(ef, el, eu),
            signature_text(name, rank, licence),
            person_named(tf, tl, tu),
            profile,
            passed,
            score,
            Decimal(str(template.get("pass_percent", "0"))),
            procedures,
            timed,
            rubric,
            "; ".join(shortfalls or []),
            comments,
            _sheet_signature(corrected_at, cname, crank, clicence) if corrected_at else "",
        )


class SheetsRestedOn:
    """For certifications, the passed sheet each rested on, read a block at a time (one
    query a block): the trainee's newest sheet at the table signed by the sign-off that no
    sheet signed by then corrected (audit.selectors.certificates.practical_sheet_of's rule)."""

    def __init__(self) -> None:
        self._words: dict[int, str] = {}

    def load(self, certifications: Iterable[tuple[int, int, int, dt.datetime]]) -> None:
        """(certification id, trainee id, profile id, signed at) of a block."""
        wanted = list(certifications)
        self._words = {}
        if not wanted:
            return
        trainees = {trainee for _, trainee, _, _ in wanted}
        profiles = {profile for _, _, profile, _ in wanted}
        sheets: dict[tuple[int, int], list[tuple[Any, ...]]] = defaultdict(list)
        corrected_at: dict[int, list[dt.datetime]] = defaultdict(list)
        for row in PracticalSheet.objects.filter(
            trainee_id__in=trainees, profile_id__in=profiles
        ).values_list(
            "pk",
            "trainee_id",
            "profile_id",
            "signed_at",
            "passed",
            "score",
            "evaluator_full_name",
            "evaluator_rank",
            "evaluator_licence",
            "corrects_id",
        ):
            sheets[(row[1], row[2])].append(row)
            if row[9] is not None:
                corrected_at[row[9]].append(row[3])
        for certification, trainee, profile, at in wanted:
            standing = [
                row
                for row in sheets[(trainee, profile)]
                if row[3] <= at and not any(when <= at for when in corrected_at[row[0]])
            ]
            if not standing:
                continue
            _, _, _, signed_at, passed, score, name, rank, licence, _ = max(
                standing, key=lambda row: (row[3], row[0])
            )
            if passed:
                self._words[certification] = (
                    f"{_sheet_signature(signed_at, name, rank, licence)}, passed, {score} %"
                )

    def words(self, certification: int) -> str:
        return self._words.get(certification, "")
