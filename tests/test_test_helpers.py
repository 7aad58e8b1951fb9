"""Test helpers live where every app's tests find them (issue #25): no test imports a
conftest. Fixtures stay in a conftest (pytest finds them; the top one, tests/conftest.py,
serves every app); plain helpers that more than one app's tests use are modules at the top
of tests/ (graded.py, answered.py, queries.py, factories.py, browser.py ...), imported by
name. A `from tests.audit.conftest import client_for` in tests/trainer made one app's tests
lean on another app's fixtures file."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
CONFTEST_IMPORT = re.compile(
    r"^\s*(from\s+tests(\.\w+)*\.conftest\s+import|from\s+tests(\.\w+)*\s+import\s+[^\n]*\bconftest\b"
    r"|import\s+tests(\.\w+)*\.conftest)",
    re.MULTILINE,
)


def conftest_imports(text: str) -> list[str]:
    return [match.group(0).strip() for match in CONFTEST_IMPORT.finditer(text)]


def test_no_test_imports_a_conftest():
    found = [
        f"{path.relative_to(TESTS.parent)}: {line}"
        for path in sorted(TESTS.rglob("*.py"))
        if path != Path(__file__).resolve()
        for line in conftest_imports(path.read_text(encoding="utf-8"))
    ]
    assert not found, (
        "import helpers from a module at the top of tests/ (or make them fixtures of "
        f"tests/conftest.py), not from a conftest: {found}"
    )


def test_the_check_sees_each_way_of_importing_a_conftest():
    assert conftest_imports("from tests.audit.conftest import client_for\n")
    assert conftest_imports("from tests.audit import conftest as audit_fixtures\n")
    assert conftest_imports("    import tests.grading.conftest\n")
    assert not conftest_imports("from tests.graded import client_for\n")
    assert not conftest_imports('"""tests/audit/conftest.py holds the fixtures."""\n')
