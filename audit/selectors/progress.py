"""A trainee's progress by skill: accuracy and mean answer time per skill, over all their
graded work and over the recent part of it, against the pass mark."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from django.utils import timezone

from trainer.labels import skill_words
from trainer.selectors.runs import current_summaries
from trainer.tallies import Tally, accuracy_percent, skill_tallies

RECENT = timedelta(days=30)
# The accuracy a table test asks for (SHOESCHOOL_CERT_PASS_MARK's default): the target a
# trainee practises towards on every skill.
TARGET = Decimal("95")


@dataclass(frozen=True)
class SkillProgress:
    skill: str
    title: str
    questions: int
    accuracy: Decimal | None
    mean_seconds: Decimal | None
    recent_questions: int
    recent_accuracy: Decimal | None
    earlier_accuracy: Decimal | None

    @property
    def meets_target(self) -> bool:
        latest = self.recent_accuracy if self.recent_questions else self.accuracy
        return latest is not None and latest >= TARGET

    @property
    def trend(self) -> str:
        """Up, down or level: the recent 30 days against what came before."""
        if self.recent_accuracy is None or self.earlier_accuracy is None:
            return ""
        if self.recent_accuracy > self.earlier_accuracy:
            return "up"
        if self.recent_accuracy < self.earlier_accuracy:
            return "down"
        return "level"


def skill_progress(*, trainee_id: int, now: datetime | None = None) -> list[SkillProgress]:
    """Every skill the trainee has been shown a question of, weakest (recent accuracy) first.

    Read from the current run summaries' per-skill facets (`trainer.tallies.skill_tallies`:
    only the questions shown that exercise the skill, as the game says): one query, however
    much work. A question never shown (an abandoned exam's rounds) counts for no skill.
    """
    since = (now or timezone.now()) - RECENT
    every: dict[str, Tally] = defaultdict(Tally)
    recent: dict[str, Tally] = defaultdict(Tally)
    earlier: dict[str, Tally] = defaultdict(Tally)
    rows = current_summaries().filter(trainee_id=trainee_id).values_list("submitted_at", "facets")
    for submitted_at, facets in rows:
        for skill, tally in skill_tallies(facets).items():
            every[skill].add(tally)
            when = earlier if submitted_at is None or submitted_at < since else recent
            when[skill].add(tally)
    titles = skill_words()
    found = []
    for skill, tally in every.items():
        mean = (
            (Decimal(tally.response_ms_sum) / tally.answered / 1000).quantize(Decimal("0.1"))
            if tally.answered
            else None
        )
        found.append(
            SkillProgress(
                skill=skill,
                title=titles.get(skill, skill.replace("-", " ").capitalize()),
                questions=tally.questions,
                accuracy=accuracy_percent(tally.correct, tally.questions),
                mean_seconds=mean,
                recent_questions=recent[skill].questions,
                recent_accuracy=accuracy_percent(recent[skill].correct, recent[skill].questions),
                earlier_accuracy=accuracy_percent(earlier[skill].correct, earlier[skill].questions),
            )
        )
    return sorted(
        found,
        key=lambda p: (
            p.recent_accuracy if p.recent_accuracy is not None else p.accuracy or Decimal(0),
            p.title,
        ),
    )
