"""The accessibility tests' own set-up: without axe-core they fail, saying how to get it,
rather than pass having checked nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.accessibility import ROOT, axe_source


@pytest.fixture
def fresh_axe_source():
    axe_source.cache_clear()
    yield
    axe_source.cache_clear()


def test_a_missing_axe_fails_the_test_saying_how_to_install_it(
    monkeypatch, tmp_path, fresh_axe_source
):
    monkeypatch.setenv("SHOESCHOOL_AXE", str(tmp_path / "axe.min.js"))
    with pytest.raises(pytest.fail.Exception, match=r"axe-core is not installed.*scripts/test"):
        axe_source()


def test_the_axe_named_by_the_environment_is_the_one_read(monkeypatch, tmp_path, fresh_axe_source):
    script = tmp_path / "axe.min.js"
    script.write_text("window.axe = {};", encoding="utf-8")
    monkeypatch.setenv("SHOESCHOOL_AXE", str(script))
    assert axe_source() == "window.axe = {};"


def test_scripts_test_pins_one_version_of_axe():
    text = Path(ROOT / "scripts" / "test").read_text(encoding="utf-8")
    assert re.search(r"^axe_version=\d+\.\d+\.\d+$", text, re.MULTILINE)
