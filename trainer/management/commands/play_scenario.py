"""Play staged-shoe scenarios from a file or stdin and print one settlement line each."""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from collections.abc import Iterator
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from trainer.rules import ScenarioError, answer_key, json_line
from trainer.rules.settlement import error_dict

# Lines are written in batches: one write per line is slow, one for a whole file is large.
_BATCH = 1000


def scenario_texts(text: str) -> Iterator[str]:
    """One scenario text per scenario: the whole text if it is one JSON object, else each line."""
    try:
        whole = json.loads(text)
    except (ValueError, RecursionError):
        whole = None
    if isinstance(whole, dict):
        yield text
        return
    for line in text.splitlines():
        if line.strip():
            yield line


def answer_key_line(text: str) -> str:
    """The answer key of one scenario text as a JSON line, or its error object."""
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        out: dict[str, Any] = error_dict(f"not valid JSON: {str(exc)[:200]}", "bad_json")
    else:
        try:
            key = answer_key(doc)  # rejects a document that is not an object, too
            out = {"id": doc.get("id"), "answer_key": key}
        except ScenarioError as exc:
            out = exc.to_dict()
        except Exception as exc:  # a bug must not stop a batch: report it as a line
            out = error_dict(f"internal error: {type(exc).__name__}: {exc}"[:300], "internal_error")
    return json.dumps(out, separators=(",", ":"), ensure_ascii=False)


class Command(BaseCommand):
    help = (
        "Play blackjack-scenario/1 documents (one JSON object, or JSON Lines) and print one "
        "blackjack-settlement/1 line per scenario, or an error line. Exit status 2 when any "
        "scenario was rejected."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", help="the scenario file; - reads stdin")
        parser.add_argument(
            "--answer-key",
            action="store_true",
            help='print {"id", "answer_key"} per scenario instead of the settlement',
        )

    def handle(self, *args: Any, **options: Any) -> None:
        text = self._read(options["file"])
        convert = answer_key_line if options["answer_key"] else json_line
        out = sys.stdout
        batch: list[str] = []
        total = rejected = 0
        for scenario in scenario_texts(text):
            line = convert(scenario)
            total += 1
            if line.startswith('{"error"'):
                rejected += 1
            batch.append(line)
            if len(batch) >= _BATCH:
                out.write("\n".join(batch) + "\n")
                batch.clear()
        if batch:
            out.write("\n".join(batch) + "\n")
        out.flush()
        if rejected:
            raise CommandError(f"{rejected} of {total} scenarios were rejected", returncode=2)

    def _read(self, name: str) -> str:
        if name == "-":
            return sys.stdin.read()
        try:
            with open(name, encoding="utf-8") as handle:
                return handle.read()
        except OSError as exc:
            raise CommandError(f"cannot read {name}: {exc.strerror}") from exc
