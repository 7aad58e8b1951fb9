"""The compliance report's decision rows: every graded question of a period, one a row.

A row stands alone (issue #24): besides the attempt, the grade and the answers, it names
the trainee by full name, the drill by its title, the table (rule profile) by its title and
the question as the trainee read it (`trainer.words.key_text`, composed from the round's
stored answer key and document). On PostgreSQL the database writes each line but the last
cell, the question's words, which Python composes once per round and appends.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Mapping
from itertools import islice
from typing import Any

from django.db import connection
from django.db.models import CharField, F, QuerySet, TextField, Value
from django.db.models.functions import Cast, Coalesce, Concat, NullIf, Trim

from audit.selectors.report_attempts import graded_questions
from core.dates import house_zone_name, zone_abbreviations
from core.postgres import csv_line, sql_csv_text, sql_house_text, sql_literal, sql_words
from trainer import words
from trainer.models import AttemptItem, Grade

DECISION_COLUMNS = (
    "attempt",
    "trainee",
    "mode",
    "grading_run",
    "round",
    "question",
    "kind",
    "answered_at",
    "response_ms",
    "correct",
    "category",
    "money_diff",
    "given_action",
    "given_amount",
    "expected_action",
    "expected_amount",
    # Chip questions (issue 14): the stacks, largest chip first. Last, so the columns
    # before them keep their places for a reader of older reports.
    "given_chips",
    "expected_chips",
    # A row that stands alone (issue 24): who, on which drill and table, asked what.
    "trainee_name",
    "drill",
    "table",
    "question_text",
)

# The columns the database reads, in order: DECISION_COLUMNS' sources but the question's
# words, with the round (item) they are composed from last.
_VALUES = (
    "run__attempt_id",
    "run__attempt__trainee__username",
    "run__attempt__mode",
    "run__number",
    "item__position",
    "question",
    "kind",
    "decision__answered_at",
    "response_ms",
    "correct",
    "category",
    "money_diff",
    "given_text",
    "expected_text",
    "trainee_name",
    "drill_title",
    "table_title",
    "item_id",
)


def _decisions(*, start: dt.date, end: dt.date) -> QuerySet[Grade, tuple[Any, ...]]:
    profile = "item__profile_version__profile"
    return (
        graded_questions(start=start, end=end)
        .order_by("run__attempt_id", "item__position", "question")
        .annotate(
            given_text=Cast("given", TextField()),
            expected_text=Cast("expected", TextField()),
            trainee_name=Trim(
                Concat(
                    F("run__attempt__trainee__first_name"),
                    Value(" "),
                    F("run__attempt__trainee__last_name"),
                    output_field=CharField(),
                )
            ),
            drill_title=F("run__attempt__drill__title"),
            # A table by its title, as people know it (its name is the program's).
            table_title=Coalesce(
                NullIf(f"{profile}__title", Value("")), f"{profile}__name", output_field=CharField()
            ),
        )
        .values_list(*_VALUES)
    )


class QuestionWords:
    """The question a trainee read, by round and question number, composed from the rounds'
    stored answer keys and documents, read a batch of rounds at a time."""

    def __init__(self) -> None:
        self._texts: dict[tuple[int, int], str] = {}

    def load(self, item_ids: Iterable[int]) -> None:
        self._texts = {}
        rounds = AttemptItem.objects.filter(pk__in=set(item_ids)).values_list(
            "pk", "answer_key", "document"
        )
        for pk, answer_key, document in rounds:
            for question in answer_key or []:
                if isinstance(question, Mapping) and "n" in question:
                    self._texts[(pk, question["n"])] = key_text(question, document)

    def text(self, item_id: int, question: int) -> str:
        return self._texts.get((item_id, question), "")


def key_text(question: Mapping[str, Any], document: Mapping[str, Any] | None) -> str:
    if not question.get("view"):
        # A round stored before its view was recorded: the engine's words, cards as a
        # dealer writes them.
        return words.dealer_words(str(question.get("prompt", "")))
    try:
        return words.key_text(question, document, note=False)
    except (KeyError, IndexError, TypeError, ValueError):
        return words.dealer_words(str(question.get("prompt", "")))


def report_decisions(
    *, start: dt.date, end: dt.date, chunk_size: int = 5000
) -> Iterator[tuple[Any, ...]]:
    """Every graded question of the period, in DECISION_COLUMNS order, streamed from the DB.

    `given` and `expected` come as their JSON text, as the database holds it (decoding and
    re-encoding a million of them would double the export's time); `answered_at` and
    `given` are None for a question never answered.
    """
    rows = _decisions(start=start, end=end).iterator(chunk_size=chunk_size)
    questions = QuestionWords()
    while batch := list(islice(rows, chunk_size)):
        questions.load(row[-1] for row in batch)
        for row in batch:
            yield (*row[:-1], questions.text(row[-1], row[5]))


def report_decisions_csv(
    *, start: dt.date, end: dt.date, chunk_size: int = 20_000, sectioned: bool = True
) -> Iterator[str] | None:
    """The decision rows already written as CSV lines by PostgreSQL, in blocks of lines.

    Each line is "decisions," and the DECISION_COLUMNS cells, as the report writes
    `report_decisions`' rows in Python (the report's formatting of each value, text through
    `core.postgres.csv_formula_safe`, a cell quoted when it holds a character of CSV_QUOTED), "\\n"
    ended: the database writes all but the question's words, appended here. Not `sectioned`,
    the lines of the flat CSV: the same without "decisions,". Formatting a
    million rows in the database costs a fraction of doing it in Python. None on another
    database: use `report_decisions`.
    """
    if connection.vendor != "postgresql":
        return None
    inner, params = _decisions(start=start, end=end).query.sql_with_params()
    # The query's columns: given and expected each become two cells, and their chips two
    # more; the round's id and the question's number go to Python for the question's words.
    c = [f"d.c{n}" for n in range(1, len(_VALUES) + 1)]
    cells = [
        f"{c[0]}::text",
        sql_csv_text(c[1]),
        sql_csv_text(sql_words(c[2], words.MODE_WORDS)),
        f"{c[3]}::text",
        f"{c[4]}::text",
        f"{c[5]}::text",
        sql_csv_text(sql_words(c[6], words.KIND_VALUE_WORDS)),
        sql_house_text(
            c[7], zone=house_zone_name(), abbreviations=zone_abbreviations(start=start, end=end)
        ),
        f"COALESCE({c[8]}::text, '')",
        f"CASE WHEN {c[9]} THEN 'yes' ELSE 'no' END",
        sql_csv_text(sql_words(c[10], words.CATEGORY_WORDS)),
        f"{c[11]}::text",  # numeric(14, 2): always two places, as :.2f
        *map(sql_csv_text, _sql_answer_parts(f"({c[12]})::jsonb")),
        *map(sql_csv_text, _sql_answer_parts(f"({c[13]})::jsonb")),
        sql_csv_text(_sql_chips(f"({c[12]})::jsonb")),
        sql_csv_text(_sql_chips(f"({c[13]})::jsonb")),
        sql_csv_text(c[14]),
        sql_csv_text(c[15]),
        sql_csv_text(c[16]),
    ]
    line = " || ',' || ".join(["'decisions'", *cells] if sectioned else cells) + " || ','"
    sql = (
        f"SELECT {line}, {c[17]}, {c[5]} FROM ({inner}) "  # noqa: S608 - built from our own expressions
        f"AS d({', '.join(n[2:] for n in c)}) ORDER BY d.c1, d.c5, d.c6"
    )
    return _blocks(sql, params, chunk_size)


def _sql_answer_parts(answer: str) -> tuple[str, str]:
    """`trainer.words.answer_parts` in SQL, of a JSON answer: its action in words and its
    amount (NULL, an unanswered question, as two empty cells)."""
    said = f"({answer} ->> 'answer')"
    money = f"({answer} ->> 'action')"
    finding = " ".join(
        f"WHEN {sql_literal('true' if natural else 'false')} THEN {sql_literal(text)}"
        for natural, text in words.PEEK_FINDING_WORDS.items()
    )
    action = (
        f"CASE WHEN {answer} IS NULL THEN NULL "
        f"WHEN {answer} ? 'action' THEN "
        f"{sql_words(money, _by_value(words.ACTION_WORDS))} "
        f"WHEN {answer} ? 'chips' THEN {sql_literal(words.EXCHANGE_WORD)} "
        f"ELSE {sql_words(said, _by_value(words.ANSWER_WORDS))} || "
        f"COALESCE(CASE ({answer} -> 'dealer_blackjack')::text {finding} END, '') END"
    )
    amount = f"CASE WHEN {answer} ? 'action' OR {answer} ? 'chips' THEN {answer} ->> 'amount' END"
    return action, amount


def _sql_chips(answer: str) -> str:
    """`trainer.words.chips_text` in SQL: the stack's chips joined by " + ", in order."""
    return (
        f"array_to_string(ARRAY(SELECT jsonb_array_elements_text("
        f"CASE WHEN jsonb_typeof({answer} -> 'chips') = 'array' THEN {answer} -> 'chips' END"
        f")), ' + ')"
    )


def _by_value(words_of: Mapping[Any, str]) -> dict[str, str]:
    return {str(key): word for key, word in words_of.items()}


def _blocks(sql: str, params: Any, chunk_size: int) -> Iterator[str]:
    questions = QuestionWords()
    with connection.chunked_cursor() as cursor:
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(chunk_size):
            questions.load(row[1] for row in rows)
            yield "".join([line + csv_line([questions.text(item, n)]) for line, item, n in rows])
