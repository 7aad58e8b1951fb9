"""Play staged rounds from a file or stdin and print one settlement line each.

Each game settles its own documents (``Keying.settled_line``, ``answer_key_line``):
blackjack's lines are the engine's, byte for byte (docs/scenario-format.md, its conformance
tests in tests/rules). ``--game`` names the game (blackjack by default)."""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from collections.abc import Iterator
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from trainer.games import DEFAULT_GAME, DocumentError, game_named

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
        "Play staged rounds (one JSON object, or JSON Lines; blackjack-scenario/1 by default) "
        "and print one settlement line per round (blackjack-settlement/1), or an error line. "
        "Exit status 2 when any round was rejected."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", help="the scenario file; - reads stdin")
        parser.add_argument(
            "--answer-key",
            action="store_true",
            help='print {"id", "answer_key"} per scenario instead of the settlement',
        )
        parser.add_argument(
            "--game", default=DEFAULT_GAME, help="the game whose rounds these are (blackjack)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            game = game_named(options["game"])
        except DocumentError as err:
            raise CommandError(err.message) from err
        text = self._read(options["file"])
        convert = game.answer_key_line if options["answer_key"] else game.settled_line
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
