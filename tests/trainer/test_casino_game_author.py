"""Authoring Scarne's Casino through the seam: its rule parameters and shipped table (frozen
by migration 0025), its documents checked by the engine at a path through the product's
import, its table card and placard, what a table test covers, the target times, the demo
trainee, and rounds generated for its skills."""

from __future__ import annotations

import importlib
import json
import random
from decimal import Decimal
from pathlib import Path

import pytest
from django.utils import timezone

from core.errors import ProductError
from tests.factories import casino_migration
from trainer.games import DocumentError, game_named
from trainer.models import RuleProfile
from trainer.selectors.house_rules import rule_words, table_rules
from trainer.services.house_rules import house_rules_change
from trainer.services.scenarios import scenario_import, scenario_validate

CASINO = game_named("casino")
CONFORMANCE = Path(__file__).resolve().parents[1] / "casino" / "conformance" / "valid.jsonl"


def _document(name: str = "seed-building-nine") -> dict:
    rows = [json.loads(line)["scenario"] for line in CONFORMANCE.read_text().splitlines()]
    return next(row for row in rows if row["id"] == name)


def test_its_parameters_are_sweeps_and_the_matchs_goal():
    assert [(p.key, p.label, p.default) for p in CASINO.parameters] == [
        ("sweeps", "Sweeps score a point", False),
        ("match_goal", "A match is played to", None),
    ]
    assert [rule.key for rule in table_rules("casino")] == ["sweeps", "match_goal"]
    assert rule_words("match_goal", 21, game="casino") == "21 points"
    assert CASINO.shipped_profiles == {"scarne-casino": {"sweeps": False, "match_goal": None}}


def test_a_table_is_judged_by_the_game():
    judged = CASINO.profile_judged({"sweeps": True}, name="scarne-casino")
    assert judged == {
        "name": "scarne-casino",
        "source": "scarne-casino-card-game.txt",
        "assumed": [],
        "sweeps": True,
        "match_goal": None,
    }
    for parameters, field in (
        ({"sweeps": "yes"}, "parameters.sweeps"),
        ({"match_goal": 15}, "parameters.match_goal"),
        ({"match_goal": True}, "parameters.match_goal"),
        ({"decks": 6}, "parameters.decks"),
    ):
        with pytest.raises(DocumentError) as refused:
            CASINO.profile_judged(parameters, name="scarne-casino")
        assert refused.value.field == field
    with pytest.raises(DocumentError) as other:
        CASINO.rule_profile({}, name="casino-shoe")
    assert other.value.field == "parameters.name"
    table = CASINO.rule_profile({"match_goal": 11}, name="scarne-casino")
    # Casino takes no bet and has one layout (the shell's stakes and boxes).
    assert (table.min_bet, table.max_bet, table.boxes, table.match_goal) == (
        Decimal(0),
        Decimal(0),
        1,
        11,
    )


def test_the_migration_ships_the_games_table_frozen():
    frozen = importlib.import_module(casino_migration()).SHIPPED
    assert {row["name"] for row in frozen} == set(CASINO.shipped_profiles)
    for row in frozen:
        assert row["game"] == "casino"
        assert row["title"] == "Scarne's Casino"
        played = CASINO.profile_judged(row["parameters"], name=row["name"])
        assert played == row["parameters"]
        assert (row["source"], row["assumed"]) == (played["source"], played["assumed"])


@pytest.mark.django_db
def test_the_shipped_table_is_recorded_and_read_in_words():
    table = RuleProfile.objects.get(name="scarne-casino")
    assert (table.game, table.title) == ("casino", "Scarne's Casino")
    version = table.current_version
    assert version.placard == "11 points a hand · No sweeps · Each hand a game"
    assert "Sweeps score nothing" in version.house_rules
    assert "Each hand is a game" in version.house_rules
    for line in version.house_rules:
        assert "_" not in line


@pytest.mark.django_db
def test_its_house_rules_change_through_the_service(admin_user):
    table = RuleProfile.objects.get(name="scarne-casino")
    changed = house_rules_change(
        actor=admin_user,
        profile=table,
        parameters={"sweeps": True, "match_goal": 21},
        effective_on=timezone.localdate(),
        notes="The house scores sweeps and plays to 21.",
    )
    assert changed.placard == "11 points a hand · Sweeps score 1 · Match to 21"
    with pytest.raises(ProductError) as refused:
        house_rules_change(
            actor=admin_user,
            profile=table,
            parameters={"sweeps": True, "match_goal": 15},
            effective_on=timezone.localdate(),
            notes="no",
        )
    assert refused.value.field == "match_goal"


@pytest.mark.django_db
def test_its_documents_are_imported_and_refused_at_a_path():
    (scenario,) = scenario_import(documents=[_document()])
    assert (scenario.game, scenario.profile_version.profile.name) == ("casino", "scarne-casino")
    assert scenario.skills == ["single-build"]
    bad = {**_document(), "table": ["6s", "2x"]}
    with pytest.raises(ProductError) as refused:
        scenario_validate(document=bad, line=4)
    assert refused.value.field == "table[1]"
    assert refused.value.message.startswith("line 4: field table[1] (bad_card):")
    with pytest.raises(ProductError) as blackjack_skill:
        scenario_validate(document={**_document(), "skills": ["natural-3to2"]})
    assert blackjack_skill.value.field == "skills"


def test_a_table_test_covers_every_skill_and_targets_each_kind():
    minimums = CASINO.table_test_skills({}, profile="scarne-casino")
    assert set(minimums) == set(CASINO.skills)
    assert all(count >= 1 for count in minimums.values())
    for kind in ("is_legal", "may_take", "legal_plays", "score_hand", "rule_on"):
        assert CASINO.target_seconds(kind) > 0
    assert CASINO.target_seconds("pay_in_chips") is None


def test_the_demo_trainee_answers_right_or_slips():
    rng = random.Random(5)
    for question in CASINO.answer_key(_document("rulings")) + CASINO.answer_key(_document()):
        document = _document("rulings") if question["kind"] == "rule_on" else _document()
        right = CASINO.demo_answer(question, rng=rng, right=True)
        parsed = CASINO.parse_answer(question["kind"], right, document=document)
        assert CASINO.compare(question, parsed).right
        slip = CASINO.demo_answer(question, rng=rng, right=False)
        parsed = CASINO.parse_answer(question["kind"], slip, document=document)
        assert not CASINO.compare(question, parsed).right


def test_a_skill_it_does_not_teach_is_refused_before_generating():
    with pytest.raises(DocumentError) as refused:
        CASINO.generate_rounds(
            rng=random.Random(1),
            parameters={},
            profile="scarne-casino",
            rounds=[["natural-3to2"]],
            min_stake=None,
            max_stake=None,
            max_boxes=1,
            round_prefix="t",
        )
    assert refused.value.field == "skills"


def test_rounds_are_generated_for_its_skills_under_the_tables_rules():
    rounds = [["capture-sum"], ["scoring"], ["penalties"]]
    kwargs = {
        "parameters": {"sweeps": True, "match_goal": None},
        "profile": "scarne-casino",
        "rounds": rounds,
        "min_stake": None,
        "max_stake": None,
        "max_boxes": 1,
        "round_prefix": "drill-7",
    }
    documents = CASINO.generate_rounds(rng=random.Random(3), **kwargs)
    assert documents == CASINO.generate_rounds(rng=random.Random(3), **kwargs)
    assert [d["id"] for d in documents] == [f"drill-7-round-{n}" for n in (1, 2, 3)]
    for document, skills in zip(documents, rounds, strict=True):
        assert document["format"] == "casino-scenario/1"
        assert document["rules"] == {"profile": "scarne-casino", "overrides": {"sweeps": True}}
        key = CASINO.answer_key(document)
        assert key
        kinds = {question["kind"] for question in key}
        assert kinds & CASINO.skill_kinds(skills[0])


def test_a_drills_free_rounds_deal_each_of_its_skills_not_the_first_only():
    skills = ["capture-sum", "single-build", "scoring", "penalties"]
    documents = CASINO.generate_rounds(
        rng=random.Random(4),
        parameters={"sweeps": False, "match_goal": None},
        profile="scarne-casino",
        rounds=[skills] * 24,
        min_stake=None,
        max_stake=None,
        max_boxes=1,
        round_prefix="free",
    )
    dealt = {skill for document in documents for skill in document["skills"]}
    assert set(skills) <= dealt
    kinds = {question["kind"] for document in documents for question in document["questions"]}
    assert {"score_hand", "rule_on"} <= kinds


@pytest.fixture
def stand_in_generator(monkeypatch):
    """The library's generator, watched: each call's skills, count, seed and profile."""
    from trainer.games.casino import authoring
    from trainer.games.casino.generator import generate as real

    calls = []

    def generate(skills, *, count, seed, profile="scarne-casino"):
        calls.append((list(skills), count, seed, profile))
        return real(skills, count=count, seed=seed, profile=profile)

    monkeypatch.setattr(authoring, "generate", generate)
    return calls


def test_the_generator_is_asked_for_each_round_under_the_tables_rules(stand_in_generator):
    kwargs = {
        "parameters": {"sweeps": True, "match_goal": 11},
        "profile": "scarne-casino",
        "rounds": [["single-build"], ["penalties", "misdeals"]],
        "min_stake": Decimal(0),
        "max_stake": Decimal(0),
        "max_boxes": 1,
        "round_prefix": "drill-3",
    }
    documents = CASINO.generate_rounds(rng=random.Random(9), **kwargs)
    assert documents == CASINO.generate_rounds(rng=random.Random(9), **kwargs)
    assert [d["id"] for d in documents] == ["drill-3-round-1", "drill-3-round-2"]
    # a round of several skills asks for them all, starting at one its seed draws
    assert [sorted(call[0]) for call in stand_in_generator[:2]] == [
        ["single-build"],
        ["misdeals", "penalties"],
    ]
    assert all(call[1:2] == (1,) and call[3] == "scarne-casino" for call in stand_in_generator)
    for document in documents:
        assert document["rules"] == {
            "profile": "scarne-casino",
            "overrides": {"sweeps": True, "match_goal": 11},
        }
        assert CASINO.answer_key(document)


@pytest.mark.django_db
def test_a_generated_casino_drill_is_made_and_dealt(stand_in_generator, pit_boss, trainee):
    from trainer.models import Mode
    from trainer.services.attempts import attempt_start
    from trainer.services.drills import drill_create

    version = RuleProfile.objects.get(name="scarne-casino").current_version
    drill = drill_create(
        title="Casino rulings, generated",
        kind="generated",
        user=pit_boss,
        profile_version=version,
        skills=["penalties"],
        count=2,
        max_boxes=1,
    )
    assert (drill.game, drill.min_stake, drill.max_stake) == ("casino", Decimal(0), Decimal(0))
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    kinds = {q["kind"] for item in attempt.items.all() for q in item.answer_key}
    assert kinds == {"rule_on"}


@pytest.mark.django_db
def test_casinos_table_test_covers_every_skill(stand_in_generator, pit_boss):
    from trainer.selectors.blueprints import blueprint_shortfalls
    from trainer.services.drills import table_test_create

    version = RuleProfile.objects.get(name="scarne-casino").current_version
    drill = table_test_create(profile_version=version, user=pit_boss)
    assert (drill.game, drill.certifies.name, drill.max_boxes) == ("casino", "scarne-casino", 1)
    assert drill.title == "Table test: Scarne's Casino"
    assert set(drill.skills) == set(CASINO.skills)
    assert not blueprint_shortfalls(drill=drill)


@pytest.mark.django_db
def test_casinos_table_test_is_sat_as_an_exam(stand_in_generator, pit_boss, trainee, api):
    from teaching.services.assignments import assignment_create
    from tests.audit.factories import TrainingClassFactory
    from trainer.models import Grade, Mode
    from trainer.services.attempts import attempt_start, attempt_submit
    from trainer.services.drills import table_test_create
    from trainer.services.grading.execute import grading_run_execute

    TrainingClassFactory(name="Casino exams", trainees=[trainee], instructors=[pit_boss])
    version = RuleProfile.objects.get(name="scarne-casino").current_version
    drill = table_test_create(profile_version=version, user=pit_boss)
    assignment = assignment_create(
        drill=drill, mode=Mode.EXAM, assigned_by=pit_boss, trainee=trainee
    )
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.EXAM, assignment=assignment)
    url = f"/api/attempts/{attempt.pk}"
    question = api.get(f"{url}/question").json()["question"]
    answer = CASINO.demo_answer(
        attempt.items.get(position=question["position"]).answer_key[question["n"] - 1],
        rng=random.Random(0),
        right=True,
    )
    body = {"position": question["position"], "question": question["n"], "answer": answer}
    response = api.post(f"{url}/answers", body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["feedback"] is None
    attempt_submit(attempt=attempt, user=trainee)
    run = grading_run_execute(run_id=attempt.grading_runs.get().pk)
    assert (run.status, run.correct) == ("graded", 1)
    assert Grade.objects.filter(run=run, category="unanswered").count() == run.questions - 1


@pytest.mark.django_db
def test_a_casino_round_is_authored_through_the_service(pit_boss):
    from trainer.services.scenario_authoring import scenario_create

    document = {**_document("seed-court-two-kings"), "id": "kings-authored"}
    authored = scenario_create(document=document, user=pit_boss)
    assert (authored.game, authored.skills) == ("casino", ["court-cards"])
    assert authored.profile_version.profile.name == "scarne-casino"
    with pytest.raises(ProductError) as refused:
        scenario_create(
            document={**document, "id": "kings-bad", "hands": {"non_dealer": ["Kh"]}},
            user=pit_boss,
        )
    assert refused.value.field == "hands.dealer"


@pytest.mark.django_db
def test_a_regrade_plays_the_round_under_the_corrected_rules(pit_boss, trainee, admin_user):
    from trainer.models import Grade, Mode
    from trainer.services.attempts import (
        attempt_question_show,
        attempt_start,
        attempt_submit,
        decision_record,
    )
    from trainer.services.drills import drill_create
    from trainer.services.grading.execute import grading_run_execute
    from trainer.services.grading.request import regrade_request
    from trainer.services.profiles import profile_version_create

    swept = {**_document("score-card-tie-with-sweeps"), "rules": "scarne-casino"}
    scenarios = scenario_import(documents=[swept])
    drill = drill_create(title="Score it", kind="fixed", user=pit_boss, scenarios=scenarios)
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    (question,) = attempt.items.get().answer_key
    assert question["expected"]["non_dealer"]["total"] == 4  # Scarne: sweeps score nothing
    attempt_question_show(attempt=attempt, user=trainee)
    answer = CASINO.demo_answer(question, rng=random.Random(1), right=True)
    decision_record(attempt=attempt, user=trainee, position=1, question=1, answer=answer)
    attempt_submit(attempt=attempt, user=trainee)
    first = grading_run_execute(run_id=attempt.grading_runs.get().pk)
    assert Grade.objects.get(run=first).correct

    # A correction of the rules the round was dealt under (not a later change of them).
    profile_version_create(
        profile=RuleProfile.objects.get(name="scarne-casino"),
        parameters={"sweeps": True},
        notes="This house always scored sweeps.",
    )
    (run,) = regrade_request(
        attempts=[attempt], reason="the house scores sweeps", requested_by=admin_user
    )
    grading_run_execute(run_id=run.pk)
    grade = Grade.objects.get(run=run)
    # The non-dealer's two sweeps now score: the answer misses 2 points.
    assert (grade.correct, grade.category, grade.points_diff) == (False, "misscored_line", 2)


def test_a_generator_that_deals_nothing_is_refused_at_the_skills(monkeypatch):
    from trainer.games.casino import authoring

    def refuses(skills, *, count, seed, profile="scarne-casino"):
        raise ValueError("no such skill here")

    monkeypatch.setattr(authoring, "generate", refuses)
    kwargs = {
        "parameters": {},
        "profile": "scarne-casino",
        "rounds": [["scoring"]],
        "min_stake": None,
        "max_stake": None,
        "max_boxes": 1,
        "round_prefix": "t",
    }
    with pytest.raises(DocumentError) as refused:
        CASINO.generate_rounds(rng=random.Random(1), **kwargs)
    assert (refused.value.field, refused.value.message) == (
        "skills",
        "the generator cannot deal scoring: no such skill here",
    )
    monkeypatch.setattr(authoring, "generate", lambda skills, *, count, seed, profile="": [])
    with pytest.raises(DocumentError, match="dealt no round for scoring"):
        CASINO.generate_rounds(rng=random.Random(1), **kwargs)
