"""The compliance report's decision rows: every graded question of a period, one a row.

A row stands alone (issue #24): besides the attempt, the grade and the answers, it names
the trainee by full name, the drill by its title, the table (rule profile) by its title and
the question as the trainee read it (composed by the round's game from the round's stored
answer key and document).

A game's records are read through the game (trainer.games): the kind of question, the
answers given and expected (``kind_words``, ``answer_columns``, ``answer_stack``) in its
words, once per distinct value; the categories through the labels the games declare
(trainer.labels). On PostgreSQL the database writes the rest of each line (the figures,
the instants, the names: a fraction of the time Python takes over a million rows) and
Python puts the game's words in their places.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Iterator, Mapping
from decimal import Decimal
from itertools import islice
from typing import Any

from django.db import connection
from django.db.models import CharField, F, QuerySet, TextField, Value
from django.db.models.functions import Cast, Coalesce, Concat, NullIf, Trim

from audit.selectors.report_attempts import graded_questions
from core.dates import house_zone_name, zone_abbreviations
from core.postgres import csv_line, sql_csv_text, sql_house_text, sql_words
from trainer import labels
from trainer.games import DocumentError, Game, game_named
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

# A period holding a points game's decisions adds the points each lost, last (only then:
# a report of money games alone keeps its columns, byte for byte).
POINTS_COLUMN = "points_lost"


def decision_columns(*, points: bool) -> tuple[str, ...]:
    """The decision rows' columns: DECISION_COLUMNS, and the points lost when ``points``."""
    return (*DECISION_COLUMNS, POINTS_COLUMN) if points else DECISION_COLUMNS


def points_figure(points: Decimal) -> str:
    """Points as a report's cell: "3", "2.50"."""
    whole = points == points.to_integral_value()
    return f"{points.quantize(Decimal(1)) if whole else points}"


def points_lost_cell(points: Decimal | None) -> str:
    """A decision's points lost as its cell: "" for a money game's decision."""
    return "" if points is None else points_figure(abs(points))


def report_decisions_have_points(*, start: dt.date, end: dt.date) -> bool:
    """Whether the period's decisions hold a points game's (a grade with its points)."""
    return graded_questions(start=start, end=end).filter(points_diff__isnull=False).exists()


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


def _decisions(
    *, start: dt.date, end: dt.date, points: bool = False
) -> QuerySet[Grade, tuple[Any, ...]]:
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
        .values_list(*_VALUES, *(("points_diff",) if points else ()))
    )


class RetiredGame:
    """What the report reads of a round whose game the house no longer runs (taken out of
    ``SHOESCHOOL_GAMES``): its stored words as they are, never another game's. The record
    is the grade and the stored key; the words were the game's."""

    def __init__(self, name: str) -> None:
        self.name = name

    def kind_words(self, kind: str) -> str:
        return str(kind).replace("_", " ").capitalize()

    def question_words(
        self, question: Mapping[str, Any], document: Mapping[str, Any] | None, *, note: bool
    ) -> str:
        return self.prompt_words(str(question.get("prompt", "")))

    def prompt_words(self, prompt: str) -> str:
        return prompt

    def answer_columns(self, answer: Mapping[str, Any] | None) -> tuple[str, str]:
        if not answer:
            return "", ""
        words = [str(value) for value in answer.values() if isinstance(value, str | int)]
        return " ".join(words), ""

    def answer_stack(self, answer: Mapping[str, Any]) -> str:
        return ""


# The report reads a round's game through these alone (a retired game's stored words).
ReportGame = Game | RetiredGame


def _game_of(name: str) -> ReportGame:
    """A round's game; one the house no longer runs is read by its stored words."""
    try:
        return game_named(name)
    except DocumentError:
        return RetiredGame(name)


class QuestionWords:
    """The question a trainee read, by round and question number, composed by each round's
    game from its stored answer key and document, read a batch of rounds at a time; and
    the round's game, which the rest of its row is read through."""

    def __init__(self) -> None:
        self._texts: dict[tuple[int, int], str] = {}
        self._games: dict[int, ReportGame] = {}

    def load(self, item_ids: Iterable[int]) -> None:
        self._texts = {}
        self._games = {}
        rounds = AttemptItem.objects.filter(pk__in=set(item_ids)).values_list(
            "pk", "answer_key", "document", "attempt__drill__game"
        )
        for pk, answer_key, document, game_name in rounds:
            game = self._games[pk] = _game_of(game_name)
            for question in answer_key or []:
                if isinstance(question, Mapping) and "n" in question:
                    self._texts[(pk, question["n"])] = key_text(question, document, game=game)

    def text(self, item_id: int, question: int) -> str:
        return self._texts.get((item_id, question), "")

    def game(self, item_id: int) -> ReportGame:
        """The round's game (loaded with its batch)."""
        return self._games[item_id]


def key_text(
    question: Mapping[str, Any], document: Mapping[str, Any] | None, *, game: ReportGame
) -> str:
    if not question.get("view"):
        # A round stored before its view was recorded: the engine's words, cards as a
        # dealer writes them.
        return game.prompt_words(str(question.get("prompt", "")))
    try:
        return game.question_words(question, document, note=False)
    except (KeyError, IndexError, TypeError, ValueError):
        return game.prompt_words(str(question.get("prompt", "")))


# An answer's three cells: its action in words, its amount and its stack in words.
AnswerCells = tuple[str, str, str]
_NO_ANSWER: AnswerCells = ("", "", "")


class GameWords:
    """A row's game words, each worked out once per game and stored value: the kind of
    question, and an answer's cells from its stored JSON text (NULL: none). The answers
    kept are bounded (`KEPT`): a month's distinct amounts are many, the memory is not."""

    KEPT = 20_000

    def __init__(self) -> None:
        self._kinds: dict[tuple[str, str], str] = {}
        self._answers: dict[tuple[str, str | None], AnswerCells] = {}
        self._cells: dict[tuple[str, str | None], AnswerCells] = {}

    def kind(self, game: ReportGame, kind: str) -> str:
        key = (game.name, kind)
        found = self._kinds.get(key)
        if found is None:
            found = self._kinds[key] = game.kind_words(kind)
        return found

    def answer(self, game: ReportGame, text: str | None) -> AnswerCells:
        key = (game.name, text)
        found = self._answers.get(key)
        if found is None:
            if len(self._answers) >= self.KEPT:
                self._answers.clear()
            found = self._answers[key] = _answer_cells(game, text)
        return found

    def _csv_cells(self, game: ReportGame, text: str | None) -> AnswerCells:
        """An answer's cells as the CSV writes them (`core.postgres.csv_line`'s cells)."""
        key = (game.name, text)
        found = self._cells.get(key)
        if found is None:
            if len(self._cells) >= self.KEPT:
                self._cells.clear()
            action, amount, stack = (csv_line([cell])[:-1] for cell in self.answer(game, text))
            found = self._cells[key] = (action, amount, stack)
        return found

    def answers_line(self, game: ReportGame, given: str | None, expected: str | None) -> str:
        """The six answer cells of a row (given action and amount, expected action and
        amount, given stack, expected stack) as a CSV fragment, no line end."""
        g, e = self._csv_cells(game, given), self._csv_cells(game, expected)
        return ",".join((g[0], g[1], e[0], e[1], g[2], e[2]))


def _answer_cells(game: ReportGame, text: str | None) -> AnswerCells:
    if not text:
        return _NO_ANSWER
    answer = json.loads(text)
    if not isinstance(answer, Mapping):
        return _NO_ANSWER
    action, amount = game.answer_columns(answer)
    return action, amount, game.answer_stack(answer)


def report_decisions(
    *, start: dt.date, end: dt.date, chunk_size: int = 5000, points: bool = False
) -> Iterator[tuple[Any, ...]]:
    """Every graded question of the period, in DECISION_COLUMNS order (with the grade's
    ``points_diff`` last when ``points``: decision_columns), streamed from the DB.

    The kind comes in the round's game's words, and `given` and `expected` each as their
    cells (action in words, amount, stack in words: `AnswerCells`), worked out once per
    distinct stored value; `answered_at` is None for a question never answered.
    """
    rows = _decisions(start=start, end=end, points=points).iterator(chunk_size=chunk_size)
    questions = QuestionWords()
    said = GameWords()
    item = len(_VALUES) - 1
    while batch := list(islice(rows, chunk_size)):
        questions.load(row[item] for row in batch)
        for row in batch:
            game = questions.game(row[item])
            yield (
                *row[:6],
                said.kind(game, row[6]),
                *row[7:12],
                said.answer(game, row[12]),
                said.answer(game, row[13]),
                *row[14:item],
                questions.text(row[item], row[5]),
                *row[item + 1 :],
            )


def report_decisions_csv(
    *,
    start: dt.date,
    end: dt.date,
    chunk_size: int = 20_000,
    sectioned: bool = True,
    points: bool = False,
) -> Iterator[str] | None:
    """The decision rows as CSV lines written by PostgreSQL and the games, in blocks of lines.

    Each line is "decisions," and the DECISION_COLUMNS cells, as the report writes
    `report_decisions`' rows in Python (the report's formatting of each value, text through
    `core.postgres.csv_formula_safe`, a cell quoted when it holds a character of CSV_QUOTED), "\\n"
    ended. The database writes the cells but the game's words, in three stretches; Python
    puts in the kind's words, the six answer cells (once per distinct answer) and the
    question's words. Not `sectioned`, the lines of the flat CSV: the same without
    "decisions,". With ``points``, each line ends with its points lost (points_lost_cell,
    in Python: only a points game's rows carry any). Formatting a million rows in the
    database costs a fraction of doing it in Python. None on another database: use
    `report_decisions`.
    """
    if connection.vendor != "postgresql":
        return None
    inner, params = _decisions(start=start, end=end, points=points).query.sql_with_params()
    # The query's columns: the kind, given and expected go to Python for their words, with
    # the round's id and the question's number for the question's.
    c = [f"d.c{n}" for n in range(1, len(_VALUES) + 1 + points)]
    before_kind = [
        f"{c[0]}::text",
        sql_csv_text(c[1]),
        sql_csv_text(sql_words(c[2], labels.MODE_WORDS)),
        f"{c[3]}::text",
        f"{c[4]}::text",
        f"{c[5]}::text",
    ]
    before_answers = [
        sql_house_text(
            c[7], zone=house_zone_name(), abbreviations=zone_abbreviations(start=start, end=end)
        ),
        f"COALESCE({c[8]}::text, '')",
        f"CASE WHEN {c[9]} THEN 'yes' ELSE 'no' END",
        sql_csv_text(sql_words(c[10], labels.category_words())),
        f"{c[11]}::text",  # numeric(14, 2): always two places, as :.2f
    ]
    after_answers = [sql_csv_text(c[14]), sql_csv_text(c[15]), sql_csv_text(c[16])]

    def stretch(cells: list[str]) -> str:
        return " || ',' || ".join(cells) + " || ','"

    first = stretch(["'decisions'", *before_kind] if sectioned else before_kind)
    sql = (
        f"SELECT {first}, {c[6]}, {stretch(before_answers)}, "  # noqa: S608 - built from our own expressions
        f"{c[12]}, {c[13]}, {stretch(after_answers)}, {c[17]}, {c[5]}"
        f"{f', {c[18]}' if points else ''} FROM ({inner}) "
        f"AS d({', '.join(n[2:] for n in c)}) ORDER BY d.c1, d.c5, d.c6"
    )
    return _blocks(sql, params, chunk_size, points=points)


def _blocks(sql: str, params: Any, chunk_size: int, *, points: bool) -> Iterator[str]:
    questions = QuestionWords()
    said = GameWords()
    with connection.chunked_cursor() as cursor:
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(chunk_size):
            questions.load(row[6] for row in rows)
            lines = []
            for first, kind, middle, given, expected, last, item, n, *lost in rows:
                game = questions.game(item)
                tail = [questions.text(item, n), *(points_lost_cell(p) for p in lost)]
                lines.append(
                    first
                    + csv_line([said.kind(game, kind)])[:-1]
                    + ","
                    + middle
                    + said.answers_line(game, given, expected)
                    + ","
                    + last
                    + csv_line(tail)
                )
            yield "".join(lines)
