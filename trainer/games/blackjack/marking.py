"""Marking blackjack's answers: the engine compares an answer with its key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trainer import rules


class BlackjackMarking:
    def compare(self, question: Mapping[str, Any], answer: Mapping[str, Any]) -> rules.Verdict:
        return rules.compare(question, answer)

    def unanswered(self) -> rules.Verdict:
        return rules.unanswered()
