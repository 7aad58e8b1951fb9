"""The `blackjack-settlement/1` output, and the fast JSON-line path used by the command."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .chipwork import settlement_chips
from .errors import ScenarioError
from .money import fmt
from .play import play_scenario
from .results import Round
from .scenario import parse

SETTLEMENT_FORMAT = "blackjack-settlement/1"
# One compact encoder, built once; the output is freshly built dicts, so no cycle check.
_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False).encode


def play(doc: Mapping[str, Any]) -> Round:
    """Validate, play and settle one scenario; raises ScenarioError when it is not playable."""
    return play_scenario(parse(doc))


def settlement_dict(result: Round) -> dict[str, Any]:
    """The JSON-ready settlement of a played round."""
    doc = result.doc
    out: dict[str, Any] = {"format": SETTLEMENT_FORMAT}
    if "id" in doc:
        out["id"] = doc["id"]
    if "title" in doc:
        out["title"] = doc["title"]
    if "skills" in doc:
        out["skills"] = doc["skills"]
    out["rules"] = doc["rules"]
    dealer = result.dealer
    out["dealer"] = {
        "cards": list(dealer.cards),
        "total": dealer.total,
        "soft": dealer.soft,
        "blackjack": dealer.blackjack,
        "bust": dealer.bust,
    }
    boxes = []
    for box in result.boxes:
        hands = []
        for hand in box.hands:
            stakes = {}
            for player, stake in hand.stakes.items():
                stakes[player] = fmt(stake)
            hands.append(
                {
                    "cards": list(hand.cards),
                    "total": hand.total,
                    "soft": hand.soft,
                    "outcome": hand.outcome,
                    "stakes": stakes,
                    "doubled": hand.doubled,
                    "split": hand.split,
                }
            )
        players = []
        for p in box.players:
            net, main, insurance, bonus = p.net, p.main, p.insurance, p.bonus
            players.append(
                {
                    "player": p.player,
                    "net": fmt(net),
                    "main": fmt(main),
                    "insurance": fmt(insurance),
                    "even_money": p.even_money,
                    "bonus": fmt(bonus),
                }
            )
        boxes.append({"box": box.box, "hands": hands, "players": players})
    out["boxes"] = boxes
    out["cards_used"] = result.cards_used
    out["reshuffle"] = result.reshuffle
    if result.chips is not None:
        out["chips"] = settlement_chips(result.chips)
    return out


def settle(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The `blackjack-settlement/1` dict of a scenario; raises ScenarioError when unplayable."""
    return settlement_dict(play(doc))


def error_dict(text: str, reason: str) -> dict[str, Any]:
    """An error object for a fault outside any field (unparsable JSON, not an object)."""
    return {"error": text, "field": "", "box": None, "reason": reason}


def json_line(doc_text: str) -> str:
    """One compact JSON line: the settlement of the scenario text, or its error. Never raises."""
    try:
        doc = json.loads(doc_text)
    except (ValueError, RecursionError) as exc:
        out = error_dict(f"not valid JSON: {str(exc)[:200]}", "bad_json")
    else:
        try:
            out = settle(doc)
        except ScenarioError as exc:
            out = exc.to_dict()
        except RecursionError:
            out = error_dict("the scenario is nested too deeply", "bad_json")
        except Exception as exc:  # a bug must not stop a batch: report it as a line
            out = error_dict(f"internal error: {type(exc).__name__}: {exc}"[:300], "internal_error")
    return _encode(out)
