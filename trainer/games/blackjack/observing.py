"""Blackjack's practical test: the evaluation sheet of a table, from its rules (a table
without insurance has no insurance item, one without a hole card no peek)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trainer.games.observing import DEFAULT_RUBRIC, ProcedureItem, SheetTemplate, TimedItem


class BlackjackObserving:
    def practical_sheet(self, parameters: Mapping[str, Any]) -> SheetTemplate:
        procedures = [
            ProcedureItem("bets", "Checks every bet is inside the table's limits before the deal"),
        ]
        if parameters.get("insurance", True):
            procedures.append(
                ProcedureItem(
                    "insurance",
                    "Offers insurance under an ace, to every box, before the peek",
                    critical=True,
                )
            )
        if parameters.get("hole_card", "peek") == "peek":
            procedures.append(
                ProcedureItem(
                    "peek", "Peeks under an ace or a ten and shows a blackjack at once", True
                )
            )
        procedures += [
            ProcedureItem("right_to_left", "Settles the boxes right to left, one at a time", True),
            ProcedureItem("naturals", "Pays a blackjack at the table's odds", True),
            ProcedureItem(
                "cut_card",
                "Handles the shoe and the cut card: reshuffles after the round it comes out",
                True,
            ),
            ProcedureItem("clear_hands", "Clears hands and chips so the camera sees them"),
        ]
        timed = [
            TimedItem("count_down", "Count down 20 chips", 10, critical=True),
            TimedItem("largest_insurance", "Work out the largest insurance bet", 10),
        ]
        if int(parameters.get("decks", 6) or 0) >= 6:
            timed.append(TimedItem("deal_shoe", "Deal out a six-deck shoe", 600))
        if not parameters.get("insurance", True):
            timed = [t for t in timed if t.code != "largest_insurance"]
        return SheetTemplate(
            procedures=tuple(procedures), timed=tuple(timed), rubric=DEFAULT_RUBRIC
        )
