"""What a table test must deal: the skills a dealer needs at one rule profile's table.

A certification exam for a profile is a blueprint (trainer.models.Drill with purpose
"exam" and ``certifies`` set) whose every sitting deals at least these rounds of each
skill. The list is the game's (its ``table_test_skills``), following the table's own rules.
"""

from __future__ import annotations

from trainer.games import game_named
from trainer.labels import skill_words
from trainer.models import Drill, DrillKind, DrillPurpose, RuleProfileVersion

# A table test deals at least this many rounds (the training standard's 50 scenarios).
TABLE_TEST_MIN_ROUNDS = 50


def table_test_skills(version: RuleProfileVersion) -> dict[str, int]:
    """Each skill the version's table needs, with the least number of rounds to deal (its
    game's own list, for that table's rules)."""
    game = game_named(version.profile.game)
    return game.table_test_skills(version.parameters, profile=version.profile.name)


def blueprint_shortfalls(*, drill: Drill) -> list[str]:
    """Why this drill cannot serve as the table test of the profile it certifies (empty: it can).

    Written for the pit boss who reads a refused sign-off: plain words, no field names.
    """
    if drill.purpose != DrillPurpose.EXAM:
        return [f"“{drill.title}” is a practice drill, not a sealed exam"]
    if drill.certifies_id is None:
        return [f"“{drill.title}” is not a table test for any rule profile"]
    if drill.kind != DrillKind.GENERATED or drill.profile_version is None:
        return [f"“{drill.title}” does not deal fresh rounds under one rule profile"]
    found = []
    profile = drill.profile_version.profile
    if drill.profile_version.profile_id != drill.certifies_id:
        found.append(f"it deals {profile.title or profile.name}, not the table it certifies")
    if drill.count < TABLE_TEST_MIN_ROUNDS:
        found.append(f"it deals {drill.count} rounds, fewer than {TABLE_TEST_MIN_ROUNDS}")
    minimums = drill.skill_minimums or {}
    labels = skill_words()
    missing = [
        labels.get(skill, skill)
        for skill, count in table_test_skills(drill.profile_version).items()
        if int(minimums.get(skill, 0)) < count
    ]
    if missing:
        found.append("it does not deal enough rounds of: " + ", ".join(missing))
    return found
