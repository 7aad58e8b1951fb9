"""JSON with a nesting limit, for everything read from outside (API bodies, scenario files).

Python's parser recurses once per level: ten thousand ``[`` raise RecursionError (a 500
in a view, a traceback in a command), and a few hundred levels that do parse can still
exhaust the stack later, wherever the value is walked recursively. Nothing here is ever
legitimately deep (a library entry is 7 levels, an API body 2), so anything deeper than
MAX_DEPTH is refused as a ValueError that says where.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

MAX_DEPTH = 32

# A JSON string (skipped whole, so brackets inside it do not count) or one bracket.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


class JSONTooDeepError(ValueError):
    """The document nests arrays and objects deeper than the limit; says where it goes over."""

    def __init__(self, limit: int, lineno: int, colno: int) -> None:
        self.limit = limit
        self.lineno = lineno
        self.colno = colno
        super().__init__(f"nested deeper than {limit} levels (line {lineno} column {colno})")


def loads(
    text: str,
    *,
    max_depth: int = MAX_DEPTH,
    parse_constant: Callable[[str], Any] | None = None,
) -> Any:
    """``json.loads`` that refuses nesting deeper than ``max_depth`` with JSONTooDeepError.

    Any other fault is json's own ValueError (JSONDecodeError), as before.
    """
    try:
        value = json.loads(text, parse_constant=parse_constant)
    except RecursionError:
        raise _too_deep(text, max_depth) from None
    if _depth_over(value, max_depth):
        raise _too_deep(text, max_depth)
    return value


def _depth_over(value: object, limit: int) -> bool:
    """Whether the parsed value nests deeper than ``limit``: walked level by level, without
    recursion (a megabyte body is walked in a fraction of its parse time)."""
    level: list[Any] = [value]
    depth = 0
    while level:
        depth += 1
        below: list[Any] = []
        for node in level:
            if type(node) is dict:
                node = node.values()
            elif type(node) is not list:
                continue
            if depth > limit:
                return True
            below += node
        level = below
    return False


def _too_deep(text: str, limit: int) -> JSONTooDeepError:
    """The error naming the line and column of the bracket that goes past ``limit``."""
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > limit:
                start = match.start()
                line = text.count("\n", 0, start) + 1
                column = start - text.rfind("\n", 0, start)
                return JSONTooDeepError(limit, line, column)
        elif token in ("]", "}"):
            depth -= 1
    # The parser recursed too deep without a bracket past the limit (a limit near
    # Python's own): say so at the start rather than nowhere.
    return JSONTooDeepError(limit, 1, 1)
