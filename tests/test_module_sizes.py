"""Every module of the product over 400 lines says why at its top (issue #25).

The product's modules are kept under about 400 lines; one that is longer on purpose says
so in its docstring with the marker phrase ``Over 400 lines`` (any case, so "A little over
400 lines: ..." reads naturally too) followed by the reason, e.g.::

    Over 400 lines on purpose: the deal and the settlement are one pass over the same
    hands; apart, they would only pass those records between modules.

A long module without the phrase fails here: split it by concern, or state the reason.
Counted: every Python file of the product (the apps, config, manage.py); not the
migrations (Django writes them), the tests, the benches, scripts or fixture builders.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 400
MARKER = re.compile(r"over 400 lines\b\W*\w+", re.IGNORECASE)
NOT_PRODUCT = {"tests", "bench", "scripts", "fixtures", "docs", "static", "templates"}
NEVER = {"migrations", "__pycache__", "node_modules"}


def product_modules() -> list[Path]:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if parts[0] in NOT_PRODUCT or parts[0].startswith(".") or parts[0] == "var":
            continue
        if NEVER.intersection(parts):
            continue
        found.append(path)
    return found


def line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def states_why(path: Path) -> bool:
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return MARKER.search(docstring) is not None


def test_the_product_modules_are_found():
    modules = {p.relative_to(ROOT).as_posix() for p in product_modules()}
    assert "manage.py" in modules
    assert "trainer/models.py" in modules or "trainer/models/__init__.py" in modules
    assert not any(m.startswith(("tests/", "bench/")) or "/migrations/" in m for m in modules)


def test_every_long_module_states_why_at_its_top():
    unexplained = [
        f"{path.relative_to(ROOT)} ({line_count(path)} lines)"
        for path in product_modules()
        if line_count(path) > LIMIT and not states_why(path)
    ]
    assert not unexplained, (
        f"modules over {LIMIT} lines without 'Over {LIMIT} lines <reason>' in their "
        f"docstring (split them by concern, or say why): {', '.join(unexplained)}"
    )


@pytest.mark.parametrize(
    ("docstring", "stated"),
    [
        ('"""Play.\n\nOver 400 lines on purpose: one pass over the hands."""', True),
        ('"""Attempts.\n\nA little over 400 lines: they share the lock."""', True),
        ('"""Play: one pass over the hands."""', False),
        ('"""Over 400 lines."""', False),  # the phrase alone gives no reason
        ("# Over 400 lines on purpose: a comment is not the module's docstring\n", False),
    ],
)
def test_the_marker_is_read_from_the_docstring(tmp_path, docstring, stated):
    module = tmp_path / "module.py"
    module.write_text(docstring + "\n", encoding="utf-8")
    assert states_why(module) is stated
