"""Scarne's Casino's practical test: the evaluation sheet of its table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trainer.games.observing import DEFAULT_RUBRIC, ProcedureItem, SheetTemplate, TimedItem


class CasinoObserving:
    def practical_sheet(self, parameters: Mapping[str, Any]) -> SheetTemplate:
        return SheetTemplate(
            procedures=(
                ProcedureItem(
                    "deal",
                    "Deals four cards to each player and four to the table, two at a time",
                    critical=True,
                ),
                ProcedureItem("builds", "Calls every build and its value aloud", critical=True),
                ProcedureItem(
                    "last_take",
                    "Gives the cards left on the table to the last player to capture",
                    critical=True,
                ),
                ProcedureItem("count", "Counts the hand's points in front of the players"),
            ),
            timed=(TimedItem("score_hand", "Score a hand from the captured cards", 60),),
            rubric=DEFAULT_RUBRIC,
        )
