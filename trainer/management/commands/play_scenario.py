"""Play staged-shoe scenarios from a file or stdin and print one settlement line each.

The blackjack engine's own command (docs/scenario-format.md, its conformance tests in
tests/rules): it prints the engine's answer keys and error objects byte for byte, so it
reads the engine directly rather than through the game seam, whose DocumentError does not
carry the engine's error object. It is the one shell module that imports the engine."""

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
_BATCH = 4096


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


def _text_writer(stream: Any) -> Any:
    """A bytes writer over a text stream without a buffer (a StringIO in a test)."""

    def write(data: bytes) -> None:
        stream.write(data.decode("utf-8"))

    return write


class Command(BaseCommand):
    # The command touches neither the database nor the apps' models: Django's system checks
    # would cost about a second of start-up for nothing.
    requires_system_checks: list[str] = []
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
        sys.stdout.flush()
        # Encoded batches straight to the byte stream: no per-line text-layer work.
        raw = getattr(sys.stdout, "buffer", None)
        write = raw.write if raw is not None else _text_writer(sys.stdout)
        encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
        errors = getattr(sys.stdout, "errors", None) or "strict"
        batch: list[str] = []
        total = rejected = 0
        for scenario in scenario_texts(text):
            line = convert(scenario)
            total += 1
            if line.startswith('{"error"'):
                rejected += 1
            batch.append(line)
            if len(batch) >= _BATCH:
                batch.append("")
                write("\n".join(batch).encode(encoding, errors))
                batch.clear()
        if batch:
            batch.append("")
            write("\n".join(batch).encode(encoding, errors))
        if raw is not None:
            raw.flush()
        sys.stdout.flush()
        if rejected:
            raise CommandError(f"{rejected} of {total} scenarios were rejected", returncode=2)

    def _read(self, name: str) -> str:
        """The whole input: a file is read as bytes in one go and decoded once."""
        if name == "-":
            return sys.stdin.read()
        try:
            with open(name, "rb") as handle:
                return handle.read().decode("utf-8")
        except OSError as exc:
            raise CommandError(f"cannot read {name}: {exc.strerror}") from exc
