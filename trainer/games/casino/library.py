"""Casino's shipped scenario library: `scenarios/scarne-casino.jsonl`, read by the engine.

The documents are written by `fixtures/scenarios/build_casino_library.py` (staged by hand,
each answer checked against its title). They sit beside the game rather than in
fixtures/scenarios/ until the shell reads `casino-scenario/1` through the game seam: the
shell's `load_library` imports every fixtures/scenarios/*.jsonl.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .engine import read_lines

LIBRARY_FILES = (Path(__file__).resolve().parent / "scenarios" / "scarne-casino.jsonl",)


def library_documents() -> list[dict[str, Any]]:
    """Every shipped Casino scenario, in file order, each checked by the engine (all or
    nothing: CasinoScenarioError naming the line when one is not valid)."""
    documents: list[dict[str, Any]] = []
    for path in LIBRARY_FILES:
        documents += read_lines(path.read_text(encoding="utf-8"))
    return documents
