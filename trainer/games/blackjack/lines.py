"""Blackjack's rounds as lines: the engine's settlement or answer key of one
blackjack-scenario/1 text, or its error object, byte for byte as docs/scenario-format.md
says (``manage.py play_scenario`` prints them)."""

from __future__ import annotations

import json
from typing import Any

from trainer.rules import ScenarioError, answer_key, json_line
from trainer.rules.settlement import error_dict


def settled_line(text: str) -> str:
    return json_line(text)


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
