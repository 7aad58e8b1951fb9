"""Import and export of `casino-scenario/1` documents as JSON Lines, all or nothing.

`read_lines` validates every line before returning any document: one bad line and the
whole import is refused (CasinoScenarioError with its line number and path). `write_lines`
validates every document before writing one line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from .errors import CasinoScenarioError
from .scenario import read

MAX_LINE = 200_000


def read_lines(text: str) -> list[dict[str, Any]]:
    """Every document of a JSON Lines text (blank lines skipped), each valid, or an error."""
    documents: list[dict[str, Any]] = []
    seen_ids: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if len(line) > MAX_LINE:
            raise CasinoScenarioError("", "too_long", "the line is too long", number)
        try:
            document = json.loads(line)
        except json.JSONDecodeError as err:
            raise CasinoScenarioError("", "bad_json", f"not JSON ({err.msg})", number) from None
        try:
            read(document)
        except CasinoScenarioError as err:
            raise err.at_line(number) from None
        doc_id = document.get("id")
        if isinstance(doc_id, str):
            if doc_id in seen_ids:
                raise CasinoScenarioError(
                    "id",
                    "duplicate_id",
                    f"the id is already used on line {seen_ids[doc_id]}",
                    number,
                )
            seen_ids[doc_id] = number
        documents.append(document)
    return documents


def write_lines(documents: Iterable[object]) -> str:
    """The documents as JSON Lines (one compact line each), after checking every one."""
    lines = []
    for number, document in enumerate(documents, start=1):
        try:
            read(document)
        except CasinoScenarioError as err:
            raise err.at_line(number) from None
        lines.append(json.dumps(document, ensure_ascii=False, separators=(",", ":")))
    return "".join(line + "\n" for line in lines)
