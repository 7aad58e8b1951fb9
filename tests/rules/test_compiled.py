"""trainer.rules.COMPILED says whether the engine runs compiled by scripts/build-engine."""

import sys
import types

import trainer.rules
from trainer.rules import COMPILED, json_line


def test_compiled_matches_the_modules_imported():
    assert isinstance(COMPILED, bool)
    for name in ("cards", "money", "scenario", "play", "settlement"):
        path = sys.modules[f"trainer.rules.{name}"].__file__ or ""
        assert path.endswith(".so") is COMPILED, path
    # A compiled function is a builtin, not a Python function object.
    assert isinstance(json_line, types.FunctionType) is not COMPILED


def test_the_package_itself_stays_python():
    assert (trainer.rules.__file__ or "").endswith("__init__.py")
