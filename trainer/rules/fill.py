"""Filling in a scenario's decisions: generators and the benchmark make legal rounds with it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .play import Chooser, play_scenario
from .scenario import parse


def fill_actions(doc: Mapping[str, Any], choose: Chooser) -> dict[str, Any]:
    """A copy of the scenario whose boxes' actions are completed by asking `choose`.

    Scripted actions are played first; every later decision is `choose(point)`. Raises
    ScenarioError for a bad scenario, or for a choice that is not legal, as `play` does.
    """
    scenario = parse(doc)
    chosen: dict[int, list[str]] = {}
    play_scenario(scenario, choose, chosen)
    out = dict(doc)
    boxes = []
    for item in doc["boxes"]:
        box = dict(item)
        box["actions"] = [*item.get("actions", []), *chosen.get(item["box"], [])]
        boxes.append(box)
    out["boxes"] = boxes
    return out
