"""Authoring Scarne's Casino: its documents validated by the engine (an error at a path is a
DocumentError naming the field), its rule parameters (sweeps, the match's goal) and shipped
table (`scarne-casino`), the table card and placard, what a table test covers, the target
times, the demo trainee's answers, and rounds generated for skills (the library's
generator, `trainer.games.casino.generator`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from trainer.games.authoring import Parameter, StagedForm
from trainer.games.casino import demo, engine
from trainer.games.casino.editing import STAGED_FORM
from trainer.games.casino.engine.errors import CasinoScenarioError
from trainer.games.casino.engine.profiles import MATCH_GOALS, PROFILE_NAME
from trainer.games.casino.engine.scenario import FORMAT
from trainer.games.casino.generator import generate
from trainer.games.casino.keying import document_error, under_profile
from trainer.games.casino.marking import SKILLS, Skill
from trainer.games.errors import DocumentError

TITLE = "Scarne's Casino"
SOURCE = "scarne-casino-card-game.txt"
PARAMETERS: tuple[Parameter, ...] = (
    Parameter(
        "sweeps",
        "Sweeps score a point",
        help="A capture that clears the table scores 1 for its taker (not Scarne's rule).",
        choices=((False, "No: sweeps score nothing (Scarne's rule)"), (True, "Yes: 1 each")),
        default=False,
        group="Scoring",
        round_words="Sweeps score a point (yes or no)",
        written=(("yes", True), ("no", False)),
    ),
    Parameter(
        "match_goal",
        "A match is played to",
        help="Hands are dealt until a player reaches the goal; none: each hand is a game.",
        choices=((None, "No match: each hand is a game"), (11, "11 points"), (21, "21 points")),
        default=None,
        group="Scoring",
    ),
)
DEFAULTS: Mapping[str, Any] = MappingProxyType({p.key: p.default for p in PARAMETERS})
SHIPPED: Mapping[str, Mapping[str, Any]] = MappingProxyType({PROFILE_NAME: DEFAULTS})
# How fast a dealer ready for the floor rules (seconds from the question shown to the answer).
TARGET_SECONDS: Mapping[str, Decimal] = MappingProxyType(
    {
        "is_legal": Decimal(15),
        "may_take": Decimal(20),
        "legal_plays": Decimal(60),
        "score_hand": Decimal(90),
        "rule_on": Decimal(20),
    }
)
NO_STAKE = Decimal(0)


@dataclass(frozen=True)
class CasinoTable:
    """A Casino table's profile as the shell reads it. Casino is played for points, not
    stakes: it takes no bet (min_bet = max_bet = 0) and has one layout (boxes = 1), so a
    generated drill's stakes are 0 and its rounds one layout each."""

    name: str
    sweeps: bool
    match_goal: int | None
    min_bet: Decimal = NO_STAKE
    max_bet: Decimal = NO_STAKE
    boxes: int = 1


def _checked(key: str, value: object) -> Any:
    if key == "sweeps":
        if not isinstance(value, bool):
            raise DocumentError(
                "Sweeps score a point: yes or no", field="sweeps", reason="bad_rules"
            )
        return value
    if isinstance(value, bool) or value not in MATCH_GOALS:
        raise DocumentError(
            "A match is played to: none, 11 or 21 points", field="match_goal", reason="bad_rules"
        )
    return value


def _profile_name(name: str) -> None:
    if name != PROFILE_NAME:
        raise DocumentError(
            f"Scarne's Casino is played under {PROFILE_NAME}, not {name[:30]!r}",
            field="name",
            reason="bad_rules",
        )


class CasinoAuthoring:
    scenario_format = FORMAT
    # Staged in the workspace's form of the game's own fields, in a dealer's words (editing).
    staged_editor: str | None = "game-fields"
    staged_form: StagedForm | None = STAGED_FORM
    parameters: Sequence[Parameter] = PARAMETERS
    shipped_profiles = SHIPPED

    def parameters_checked(self, parameters: Mapping[str, Any]) -> None:
        for p in PARAMETERS:
            if p.key in parameters:
                _checked(p.key, parameters[p.key])

    def profile_judged(
        self, parameters: Mapping[str, Any], *, name: str, path: str = "parameters"
    ) -> dict[str, Any]:
        known = {p.key for p in PARAMETERS} | {"name", "source", "assumed"}
        unknown = sorted(str(key) for key in parameters if key not in known)
        at = f"{path}." if path else ""
        if unknown:
            raise DocumentError(
                f"{unknown[0][:30]!r} is not a rule of Scarne's Casino (sweeps, match_goal)",
                field=f"{at}{unknown[0][:30]}",
                reason="bad_rules",
            )
        data = {p.key: parameters.get(p.key, p.default) for p in PARAMETERS}
        try:
            _profile_name(name)
            self.parameters_checked(data)
        except DocumentError as err:
            raise DocumentError(err.message, field=f"{at}{err.field}", reason=err.reason) from err
        source = parameters.get("source")
        assumed = parameters.get("assumed")
        return {
            "name": name,
            "source": source if isinstance(source, str) else SOURCE,
            "assumed": list(assumed) if isinstance(assumed, list | tuple) else [],
            **data,
        }

    def profile_parameters(self, parameters: Mapping[str, Any], *, name: str) -> dict[str, Any]:
        judged = self.profile_judged(parameters, name=name, path="")
        return {p.key: judged[p.key] for p in PARAMETERS}

    def rule_profile(self, parameters: Mapping[str, Any], *, name: str) -> CasinoTable:
        data = self.profile_judged(parameters, name=name)
        return CasinoTable(name=name, sweeps=data["sweeps"], match_goal=data["match_goal"])

    def validate(self, document: Mapping[str, Any]) -> dict[str, Any]:
        try:
            return engine.answers(dict(document))
        except CasinoScenarioError as err:
            raise document_error(err) from err

    def table_card(self, parameters: Mapping[str, Any], *, profile: str) -> list[str]:
        table = self.rule_profile(parameters, name=profile)
        goal = table.match_goal
        return [
            "Two players; the non-dealer leads; six deals of four cards each, the sixth is Last",
            "A card takes its pairs, groups adding up to its value and builds of its value",
            "A court card takes one of its rank; the fourth takes all three",
            "Builds go to 10 at most; the owner keeps a card to take each build",
            "Cards 3 · spades 1 · big casino (10♦) 2 · little casino (2♠) 1 · aces 1 each",
            "Sweeps score 1 each" if table.sweeps else "Sweeps score nothing",
            f"A match is played to {goal} points" if goal else "Each hand is a game",
            "A penalty is loss of the game: the opponent is credited 11 points",
        ]

    def placard(self, parameters: Mapping[str, Any]) -> str:
        table = self.rule_profile(parameters, name=PROFILE_NAME)
        sweeps = "Sweeps score 1" if table.sweeps else "No sweeps"
        goal = f"Match to {table.match_goal}" if table.match_goal else "Each hand a game"
        return f"11 points a hand · {sweeps} · {goal}"

    def table_test_skills(self, parameters: Mapping[str, Any], *, profile: str) -> dict[str, int]:
        self.rule_profile(parameters, name=profile)
        return {skill: 2 if skill == Skill.SCORING else 1 for skill in SKILLS}

    def target_seconds(self, kind: str) -> Decimal | None:
        return TARGET_SECONDS.get(kind)

    def demo_answer(
        self, question: Mapping[str, Any], *, rng: random.Random, right: bool
    ) -> dict[str, Any]:
        return demo.given(question) if right else demo.slip(question, rng)

    def generate_rounds(
        self,
        *,
        rng: random.Random,
        parameters: Mapping[str, Any],
        profile: str,
        rounds: Sequence[Sequence[str]],
        min_stake: Decimal | None,
        max_stake: Decimal | None,
        max_boxes: int,
        round_prefix: str,
    ) -> list[dict[str, Any]]:
        table = self.rule_profile(parameters, name=profile)
        for skills in rounds:
            unknown = [skill for skill in skills if skill not in SKILLS]
            if unknown:
                raise DocumentError(
                    f"Scarne's Casino deals no skill {unknown[0][:30]!r}",
                    field="skills",
                    reason="bad_skill",
                )
        played = {"sweeps": table.sweeps, "match_goal": table.match_goal}
        out = []
        for n, skills in enumerate(rounds, start=1):
            seed = rng.randrange(2**31)
            # The generator takes skills in turn: a round of several starts at one drawn by
            # its seed, so a drill's free rounds deal each of its skills, not the first only.
            turn = seed % len(skills) if skills else 0
            try:
                dealt = generate(
                    [*skills[turn:], *skills[:turn]], count=1, seed=seed, profile=profile
                )
            except CasinoScenarioError as err:
                raise document_error(err) from err
            except ValueError as err:
                raise DocumentError(
                    f"the generator cannot deal {', '.join(skills)}: {str(err)[:200]}",
                    field="skills",
                    reason="bad_skill",
                ) from err
            if len(dealt) != 1 or not isinstance(dealt[0], dict):
                raise DocumentError(
                    f"the generator dealt no round for {', '.join(skills)}",
                    field="skills",
                    reason="bad_skill",
                )
            document = under_profile(dealt[0], profile=profile, parameters=played)
            document["id"] = f"{round_prefix}-round-{n}"
            out.append(document)
        return out
