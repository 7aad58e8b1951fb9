"""True skill figures (issue #24): a question counts for a skill only where that question
exercises it (trainer.skills) and only when it was shown; rounds not reached count for no
skill and are counted apart. Results, My record's trend, the pit's figures and the
refresher's weakest skills all read the same figures."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.selectors import dashboard, grades
from audit.selectors.progress import skill_progress
from audit.services.remediation import weak_skills
from tests.graded import RIGHT, Answer, client_for, make_attempt
from tests.trainer.factories import (
    AssignmentFactory,
    DrillFactory,
    chip_document,
    insurance_document,
    natural_document,
    profile_version,
    simple_document,
)
from trainer import rules
from trainer.games.blackjack import answer_fields
from trainer.games.blackjack.generator import generate_round
from trainer.games.blackjack.skills import SKILL_QUESTIONS, Skill, question_skills, skill_kinds
from trainer.models import (
    Attempt,
    DrillKind,
    GradingRun,
    GradingRunSummary,
    Mode,
    RuleProfile,
)
from trainer.selectors.attempts import attempt_results
from trainer.services.attempts import (
    attempt_question_show,
    attempt_start,
    attempt_submit,
    decision_record,
)
from trainer.services.grading.execute import grading_runs_execute
from trainer.services.grading.request import regrade_request
from trainer.services.profiles import profile_version_create
from trainer.services.run_summaries import run_summary_build
from trainer.shown import shown_questions
from trainer.tallies import GradeFacts, Tally, skill_tallies, summarize

CHIP_SKILLS = ["pay-in-chips", "colour-up", "change"]


# The play: answer the questions of an attempt, in order, as a trainee would.


def _right_answer(question: Mapping[str, Any]) -> dict[str, Any]:
    """The expected answer in the shape a trainee sends it."""
    fields = answer_fields(question["kind"])
    return {k: v for k, v in question["expected"].items() if k in fields}


def _answer_until(attempt: Attempt, user, *, stop) -> list[dict[str, Any]]:
    """Answer each question right, in order, until ``stop(question)`` says the last one
    answered was the one wanted; returns the questions answered."""
    answered = []
    while True:
        shown = attempt_question_show(attempt=attempt, user=user)
        assert shown is not None, "the attempt ran out of questions"
        item = attempt.items.get(position=shown["position"])
        question = next(q for q in item.answer_key if q["n"] == shown["n"])
        decision_record(
            attempt=attempt,
            user=user,
            position=shown["position"],
            question=shown["n"],
            answer=_right_answer(question),
        )
        answered.append(question)
        if stop(question):
            return answered


def _submit_and_grade(attempt: Attempt, user) -> Attempt:
    attempt_submit(attempt=attempt, user=user)
    grading_runs_execute(
        run_ids=list(GradingRun.objects.filter(attempt=attempt).values_list("pk", flat=True))
    )
    attempt.refresh_from_db()
    return attempt


def _by_skill(attempt: Attempt, user) -> dict[str, tuple[int, int]]:
    results = attempt_results(attempt=attempt, user=user)
    assert results.graded
    return {row.skill: (row.questions, row.correct) for row in results.skills}


def _colour_up_document(doc_id: str) -> dict[str, Any]:
    """A natural settled in money, then a colour-up, then the reshuffle call: filed under
    the three chip skills, as the library's chip rounds are."""
    return {
        **natural_document(doc_id),
        "skills": list(CHIP_SKILLS),
        "chips": {"colour_up": [{"box": 1, "player": "p1", "pile": ["5"] * 6 + ["1"] * 6}]},
    }


# Regressions: what the issue found.


@pytest.mark.django_db
def test_one_colour_up_question_counts_once_for_colour_up_and_for_nothing_else(pit, trainee):
    drill = DrillFactory(documents=[_colour_up_document(f"colour-up-{n}") for n in range(4)])
    AssignmentFactory(drill=drill, mode=Mode.PRACTICE, trainee=trainee)
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    answered = _answer_until(attempt, trainee, stop=lambda q: q["kind"] == "colour_up")
    assert [q["kind"] for q in answered] == ["settle_hand", "colour_up"]
    attempt = _submit_and_grade(attempt, trainee)

    # The settlement of the natural exercises no chip skill; the colour-up, Colour up only.
    assert _by_skill(attempt, trainee) == {"colour-up": (1, 1)}
    results = attempt_results(attempt=attempt, user=trainee)
    # The rest of round 1 (the reshuffle) and the three rounds not reached.
    assert results.not_reached == 1 + 3 * 3
    assert results.run.questions == 4 * 3

    (colour_up,) = skill_progress(trainee_id=trainee.pk)
    assert (colour_up.skill, colour_up.questions, colour_up.accuracy) == (
        "colour-up",
        1,
        Decimal("100.0"),
    )
    html = client_for(trainee).get(f"/train/attempts/{attempt.pk}/results/").content.decode()
    table = html.split('id="by-skill"', 1)[1].split("</table>", 1)[0]
    assert "Colour up" in table
    assert "Change" not in table
    assert "Pay in chips" not in table


@pytest.mark.django_db
def test_a_generated_chip_drill_counts_one_answered_question_under_its_own_skill(pit, trainee):
    drill = DrillFactory(
        kind=DrillKind.GENERATED,
        profile_version=profile_version("casino-shoe"),
        skills=list(CHIP_SKILLS),
        count=10,
        max_boxes=3,
    )
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE, seed=7)
    first = attempt.items.get(position=1)
    (skill,) = first.document["skills"]
    kind = {"pay-in-chips": "pay_in_chips", "colour-up": "colour_up", "change": "change"}[skill]
    answered = _answer_until(attempt, trainee, stop=lambda q: q["kind"] == kind)
    attempt = _submit_and_grade(attempt, trainee)
    # However many other questions round 1 asked first, and however many the nine rounds
    # not reached hold, the figures have the one chip question answered, under its skill.
    assert _by_skill(attempt, trainee) == {skill: (1, 1)}
    results = attempt_results(attempt=attempt, user=trainee)
    assert results.not_reached == results.run.questions - len(answered)
    for other in set(CHIP_SKILLS) - {skill}:
        figures = dashboard.grade_figures(
            trainees=[trainee.pk], filters=grades.StatsFilter(skill=other)
        )
        assert figures.total.questions == 0


@pytest.fixture
def good_at_naturals(pit, trainee):
    """Two months ago: four naturals settled right."""
    make_attempt(
        trainee=trainee,
        answers=[RIGHT] * 4,
        submitted_at=dt.datetime.now(dt.UTC) - dt.timedelta(days=60),
    )


@pytest.mark.django_db
def test_an_abandoned_exam_makes_no_skill_worse_for_questions_never_shown(
    good_at_naturals, trainee
):
    document = {**natural_document(), "skills": ["natural-3to2"]}
    drill = DrillFactory(documents=[{**document, "id": f"natural-{n}"} for n in range(8)])
    AssignmentFactory(drill=drill, mode=Mode.EXAM, trainee=trainee)
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.EXAM)
    _answer_until(attempt, trainee, stop=lambda q: True)
    # The trainee walks away: the exam is submitted with one question answered.
    attempt = _submit_and_grade(attempt, trainee)
    assert attempt.score < 10

    (natural,) = skill_progress(trainee_id=trainee.pk)
    assert (natural.questions, natural.recent_questions) == (5, 1)
    assert natural.recent_accuracy == natural.earlier_accuracy == Decimal("100.0")
    assert natural.trend == "level"
    assert natural.meets_target
    # So no refresher is chosen on it.
    assert weak_skills(trainee=trainee) == []
    page = client_for(trainee).get("/train/record/").content.decode()
    row = page.split('data-skill="natural-3to2"', 1)[1].split("</tr>", 1)[0]
    assert "↓" not in row
    assert "below target" not in row


@pytest.mark.django_db
def test_a_mistake_on_a_question_no_skill_covers_is_under_no_skill(pit, trainee):
    drill = DrillFactory(documents=[_colour_up_document("colour-up")])
    AssignmentFactory(drill=drill, mode=Mode.PRACTICE, trainee=trainee)
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    shown = attempt_question_show(attempt=attempt, user=trainee)
    assert shown is not None
    assert shown["kind"] == "settle_hand"
    decision_record(
        attempt=attempt,
        user=trainee,
        position=1,
        question=shown["n"],
        answer={"action": "pay", "amount": "25.00"},
    )
    attempt = _submit_and_grade(attempt, trainee)
    figures = dashboard.grade_figures(trainees=[trainee.pk])
    # Settling the natural is no chip work: the mistake is not a chip skill's.
    assert dashboard.errors_by_skill(figures=figures) == [("Other questions", 1)]
    assert _by_skill(attempt, trainee) == {}
    filtered = grades.StatsFilter(skill="colour-up")
    assert grades.mistakes(trainees=[trainee.pk], filters=filtered) == []


# The mapping, on real answer keys.

# casino-shoe: box 1 doubles 11 into 21, box 2 stands on 19, the dealer stands on 17.
# Questions: 1 dealer_play stand, 2 settle box 2, 3 settle box 1 (doubled), 4 reshuffle.
DOUBLE_ROUND = {
    "format": "blackjack-scenario/1",
    "id": "a-double-beside-a-plain-hand",
    "rules": "casino-shoe",
    "skills": ["double", "cut-card"],
    "boxes": [
        {"box": 1, "stakes": [{"player": "p1", "amount": "10"}], "actions": ["double"]},
        {"box": 2, "stakes": [{"player": "p2", "amount": "25"}], "actions": ["stand"]},
    ],
    "shoe": ["6h", "Th", "9d", "5c", "9s", "8c", "Kd"],
}


def test_a_double_counts_the_doubled_hands_settlement_and_nothing_else():
    key = rules.answer_key(DOUBLE_ROUND)
    found = [(q["kind"], q["box"], question_skills(DOUBLE_ROUND["skills"], q)) for q in key]
    assert found == [
        ("dealer_play", None, ()),
        ("settle_hand", 2, ()),
        ("settle_hand", 1, ("double",)),
        ("reshuffle", None, ("cut-card",)),
    ]


def test_a_push_counts_the_pushed_hand_only():
    doc = {**simple_document(), "skills": ["push"]}
    counted = [q["n"] for q in rules.answer_key(doc) if question_skills(doc["skills"], q)]
    assert counted == [2]


def test_a_payout_in_chips_counts_for_the_chips_and_for_the_payout_it_settles():
    doc = {**chip_document(), "skills": ["pay-in-chips", "natural-3to2", "colour-up"]}
    found = [(q["kind"], question_skills(doc["skills"], q)) for q in rules.answer_key(doc)]
    assert found == [
        ("pay_in_chips", ("pay-in-chips", "natural-3to2")),
        ("colour_up", ("colour-up",)),
        ("reshuffle", ()),
    ]


def test_every_skill_is_in_the_table_and_an_unknown_one_counts_nothing():
    assert set(SKILL_QUESTIONS) == set(Skill.values)
    question = rules.answer_key(DOUBLE_ROUND)[2]
    assert question_skills(["made-up", "double", "double"], question) == ("double",)
    assert skill_kinds("made-up") == frozenset()
    assert skill_kinds("double") == {"settle_hand", "pay_in_chips"}
    assert skill_kinds("colour-up") == {"colour_up"}


def test_a_regrades_new_key_is_shown_where_the_question_it_matches_was():
    asked = rules.answer_key(DOUBLE_ROUND)
    # A new key with one more dealer draw first: every question moves one place on.
    extra = {**asked[0], "n": 1}
    key = [extra] + [{**q, "n": q["n"] + 1} for q in asked]
    shown = {"1": "t", "2": "t", "3": "t"}
    assert shown_questions(key=asked, asked=asked, questions_shown=shown) == {1, 2, 3}
    # The two dealer_play questions are the first and second turn of the same identity.
    assert shown_questions(key=key, asked=asked, questions_shown=shown) == {1, 3, 4}


# Invariants, over generated rounds of every skill.

_PROFILES = ["casino-shoe", "european-enhc-6deck"]


@st.composite
def _graded_rounds(draw: st.DrawFn) -> list[GradeFacts]:
    facts: list[GradeFacts] = []
    for _ in range(draw(st.integers(1, 3))):
        profile = rules.PROFILES[draw(st.sampled_from(_PROFILES))]
        skill = draw(st.sampled_from(sorted(SKILL_QUESTIONS)))
        seed = draw(st.integers(0, 10_000))
        try:
            doc = generate_round(
                rng=random.Random(seed),
                profile=profile,
                skills=[skill],
                min_stake=profile.min_bet,
                max_stake=profile.min_bet * 20,
                max_boxes=3,
                round_id=f"round-{seed}",
            )
        except rules.ScenarioError:
            continue  # a skill this table cannot deal (a 6:5 natural at 3:2)
        key = rules.answer_key(doc)
        # Questions are shown in order: the first `reached` of them.
        reached = draw(st.integers(0, len(key)))
        for question in key:
            shown = question["n"] <= reached
            right = draw(st.booleans())
            facts.append(
                GradeFacts(
                    right,
                    draw(st.integers(0, 30_000)) if shown else None,
                    Decimal(0),
                    "" if right else ("overpay" if shown else "unanswered"),
                    profile.name,
                    question_skills(doc["skills"], question),
                    kind=question["kind"],
                    shown=shown,
                )
            )
    return facts


def _stored_skills(facts: Sequence[GradeFacts]) -> dict[str, Tally]:
    """The skill figures as a summary stores them, read back."""
    _, facets, _ = summarize(facts)
    return skill_tallies({key: tally.as_json() for key, tally in facets.items()})


def _skill_figures(facts: Sequence[GradeFacts]) -> dict[str, tuple[int, int]]:
    return {s: (t.questions, t.correct) for s, t in _stored_skills(facts).items()}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_graded_rounds())
def test_skill_figures_count_each_shown_question_once_per_skill_it_exercises(facts):
    total, _, _ = summarize(facts)
    shown = [f for f in facts if f.shown]
    by_skill = _stored_skills(facts)
    # The sum over skills of a question's counts is the number of skills it exercises.
    assert sum(t.questions for t in by_skill.values()) == sum(len(f.skills) for f in shown)
    assert sum(t.correct for t in by_skill.values()) == sum(
        len(f.skills) for f in shown if f.correct
    )
    for skill, tally in by_skill.items():
        # Never more than the questions shown, nor than those exercising the skill.
        assert tally.questions == sum(1 for f in shown if skill in f.skills) <= len(shown)
        assert tally.not_reached == 0
    # Rounds not reached never affect any skill, and are counted apart.
    assert _skill_figures(facts) == _skill_figures(shown)
    assert total.not_reached == len(facts) - len(shown)
    assert total.questions == len(facts)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_graded_rounds())
def test_a_question_exercises_only_skills_of_its_round_of_kinds_the_table_gives(facts):
    for fact in facts:
        for skill in fact.skills:
            assert fact.kind in skill_kinds(skill)
        alone = _skill_figures([fact])
        expected = {skill: (1, int(fact.correct)) for skill in fact.skills} if fact.shown else {}
        assert alone == expected


def test_each_generated_chip_round_has_exactly_one_question_of_its_skill():
    profile = rules.PROFILES["casino-shoe"]
    for skill in CHIP_SKILLS:
        for seed in range(5):
            doc = generate_round(
                rng=random.Random(seed),
                profile=profile,
                skills=[skill],
                min_stake=profile.min_bet,
                max_stake=profile.min_bet * 20,
                max_boxes=3,
                round_id=f"r{seed}",
            )
            counted = [q for q in rules.answer_key(doc) if question_skills(doc["skills"], q)]
            assert len(counted) == 1, (skill, seed)


# A regrade, and summaries written again.


@pytest.mark.django_db
def test_a_regrade_that_changes_the_key_counts_what_was_shown_as_it_was_asked(pit, trainee):
    document = {**insurance_document(), "skills": ["insurance", "soft-17"]}
    drill = DrillFactory(documents=[document])
    AssignmentFactory(drill=drill, mode=Mode.PRACTICE, trainee=trainee)
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    answered = _answer_until(attempt, trainee, stop=lambda q: q["kind"] == "peek")
    assert [q["kind"] for q in answered] == ["offer_insurance", "peek"]
    attempt = _submit_and_grade(attempt, trainee)
    assert _by_skill(attempt, trainee) == {"insurance": (1, 1)}

    # The house stands on soft 17: the dealer's two hits become one stand, and every
    # question after them moves up one.
    profile_version_create(
        profile=RuleProfile.objects.get(name="casino-shoe"),
        parameters={"dealer_hits_soft_17": False},
        notes="The house stands on soft 17",
    )
    (again,) = regrade_request(attempts=[attempt], reason="S17 correction")
    grading_runs_execute(run_ids=[again.pk])
    again.refresh_from_db()
    assert again.questions == 6
    # Still the offer alone: the settled insurance and the dealer's draw were never shown.
    assert _by_skill(attempt, trainee) == {"insurance": (1, 1)}
    assert attempt_results(attempt=attempt, user=trainee).not_reached == 4
    # Read again from the database, the regrade's key replayed from its basis, the summary
    # is the one the grading service wrote.
    stored = GradingRunSummary.objects.get(run=again)
    rebuilt = run_summary_build(run=again)
    assert (rebuilt.facets, rebuilt.not_reached) == (stored.facets, stored.not_reached)


@pytest.mark.django_db
def test_the_rebuild_writes_every_summary_again_by_todays_rules(pit, trainee):
    drill = DrillFactory(documents=[_colour_up_document(f"colour-up-{n}") for n in range(3)])
    AssignmentFactory(drill=drill, mode=Mode.PRACTICE, trainee=trainee)
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    _answer_until(attempt, trainee, stop=lambda q: q["kind"] == "colour_up")
    attempt = _submit_and_grade(attempt, trainee)
    summary = GradingRunSummary.objects.get(attempt=attempt)
    right = (summary.facets, summary.not_reached, summary.questions)
    # As a summary written before #24 had it: every question of every round in each skill.
    everything = summary.facets["p:casino-shoe"]
    GradingRunSummary.objects.filter(pk=summary.pk).update(
        not_reached=0, facets={**summary.facets, **{f"s:{s}": everything for s in CHIP_SKILLS}}
    )
    assert set(_by_skill(attempt, trainee)) == set(CHIP_SKILLS)
    assert "summarized 1 run(s)" in call_command("build_run_summaries", "--rebuild")
    summary = GradingRunSummary.objects.get(attempt=attempt)
    assert (summary.facets, summary.not_reached, summary.questions) == right
    assert _by_skill(attempt, trainee) == {"colour-up": (1, 1)}


@pytest.mark.django_db
def test_the_mistakes_under_a_skill_are_the_questions_its_figures_count(pit, trainee):
    drill = DrillFactory(documents=[DOUBLE_ROUND])
    AssignmentFactory(drill=drill, mode=Mode.PRACTICE, trainee=trainee)
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    # Every question of the round answered wrong: the dealer's draw, both settlements and
    # the reshuffle call.
    wrong = {
        "dealer_play": {"answer": "hit"},
        "settle_hand": {"action": "pay", "amount": "1.00"},
        "reshuffle": {"answer": "reshuffle"},
    }
    while (shown := attempt_question_show(attempt=attempt, user=trainee)) is not None:
        decision_record(
            attempt=attempt,
            user=trainee,
            position=shown["position"],
            question=shown["n"],
            answer=wrong[shown["kind"]],
        )
    _submit_and_grade(attempt, trainee)
    double = grades.StatsFilter(skill="double")
    (mistake,) = grades.mistakes(trainees=[trainee.pk], filters=double)
    assert (mistake.kind, mistake.question) == ("settle_hand", 3)  # box 1, the doubled hand
    figures = dashboard.grade_figures(trainees=[trainee.pk], filters=double)
    assert (figures.total.questions, figures.total.correct) == (1, 0)
    (cut,) = grades.mistakes(trainees=[trainee.pk], filters=grades.StatsFilter(skill="cut-card"))
    assert cut.kind == "reshuffle"
    everything = dashboard.grade_figures(trainees=[trainee.pk])
    assert dict(dashboard.errors_by_skill(figures=everything)) == {
        "Other questions": 2,
        "Doubles": 1,
        "Cut card and reshuffle": 1,
    }


@pytest.mark.django_db
def test_the_dashboards_totals_count_the_questions_not_reached_apart(pit, trainee):
    make_attempt(
        trainee=trainee,
        answers=[RIGHT, Answer(False, Decimal(0), "unanswered", None)],
    )
    total = dashboard.grade_figures(trainees=[trainee.pk]).total
    assert (total.questions, total.not_reached) == (2, 1)
    natural = dashboard.grade_figures(
        trainees=[trainee.pk], filters=grades.StatsFilter(skill="natural-3to2")
    ).total
    assert (natural.questions, natural.not_reached) == (1, 0)
