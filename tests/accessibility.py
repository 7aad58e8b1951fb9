"""axe-core in the browser tests: inject it into a page, run the WCAG 2.0/2.1 A and AA rules,
and say what fails by rule and element.

scripts/test fetches axe-core from the npm registry (its pinned version) into var/ and
names the file in SHOESCHOOL_AXE; run on its own, a test looks in var/ for it. Any page of
the product can be checked: `assert_accessible(page)`, or `axe_violations(page)` to look at
the findings.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parent.parent
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


@cache
def axe_source() -> str:
    """axe.min.js as text; the test fails, saying how to install it, when it is missing."""
    named = os.environ.get("SHOESCHOOL_AXE")
    candidates = [Path(named)] if named else sorted(ROOT.glob("var/axe-core-*/axe.min.js"))
    for path in candidates:
        if path.is_file():
            return path.read_text(encoding="utf-8")
    pytest.fail(
        "axe-core is not installed, so the accessibility tests cannot run: scripts/test "
        "fetches it with npm into var/axe-core-<version>/ (install npm with "
        "`apt-get install npm`, then run scripts/test once)",
        pytrace=False,
    )


def axe_violations(page: Page, *, exclude: list[str] | None = None) -> list[dict[str, Any]]:
    """axe's violations of WCAG 2.0/2.1 A and AA on the page as it is now; ``exclude`` takes
    CSS selectors of parts that are not ours."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated, not added as a <script> element: the page's CSP refuses inline script.
        page.evaluate(axe_source())
    context: dict[str, Any] = {"exclude": [[s] for s in exclude or []]}
    result = page.evaluate(
        """([context, tags]) => axe.run(context.exclude.length ? context : document,
             {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]})""",
        [context, WCAG_AA],
    )
    return list(result["violations"])


def dangling_references(page: Page) -> list[str]:
    """aria-describedby / aria-labelledby naming an id that no element of the page has
    (axe lets one pass when the attribute names no element at all)."""
    return list(
        page.evaluate(
            """() => {
              const found = [];
              for (const name of ["aria-describedby", "aria-labelledby"]) {
                for (const element of document.querySelectorAll(`[${name}]`)) {
                  for (const id of element.getAttribute(name).split(/\\s+/)) {
                    if (id && !document.getElementById(id)) {
                      const tag = element.tagName.toLowerCase();
                      found.push(`${name}="${id}" on <${tag} id="${element.id}">`);
                    }
                  }
                }
              }
              return found;
            }"""
        )
    )


def describe(violations: list[dict[str, Any]]) -> str:
    """One line per failing element: rule id, impact, target, and axe's summary."""
    lines = []
    for violation in violations:
        for node in violation["nodes"]:
            target = " ".join(str(t) for t in node["target"])
            summary = (node.get("failureSummary") or "").replace("\n", " ")
            lines.append(
                f"{violation['id']} ({violation.get('impact')}) at {target}: "
                f"{violation['help']}. {summary}"
            )
    return "\n".join(lines)


def assert_accessible(page: Page, *, exclude: list[str] | None = None) -> None:
    """Fails listing every WCAG A/AA violation axe finds on the page."""
    violations = axe_violations(page, exclude=exclude)
    assert not violations, f"axe found on {page.url}:\n{describe(violations)}"
    dangling = dangling_references(page)
    assert not dangling, f"references to no element on {page.url}: {dangling}"
