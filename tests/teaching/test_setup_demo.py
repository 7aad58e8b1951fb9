"""setup_demo: the development set-up's accounts, library, class, drills and assignments."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import override_settings

from core.roles import Role, roles_of
from trainer import rules
from trainer.games import game_named
from trainer.models import Assignment, Drill, Scenario, TrainingClass
from trainer.selectors.blueprints import blueprint_shortfalls
from trainer.selectors.drill_rounds import generate_documents


def run() -> str:
    out = io.StringIO()
    with override_settings(ENVIRONMENT="development"):
        call_command("setup_demo", stdout=out)
    return out.getvalue()


@pytest.fixture
def demo(db) -> str:
    return run()


def test_it_creates_the_demo_accounts(demo):
    users = {u.username: u for u in get_user_model().objects.all()}
    assert roles_of(users["trainee"]) == {Role.TRAINEE}
    assert roles_of(users["pitboss"]) == {Role.PIT_BOSS}
    assert users["admin"].check_password("shoe-school-demo")
    # A reset link can be tried on them: development prints the e-mail to the console.
    assert users["trainee"].email == "trainee@shoeschool.example"


def test_it_loads_the_library_and_puts_the_trainee_in_the_demo_class(demo):
    assert Scenario.objects.filter(is_active=True).count() >= 120
    group = TrainingClass.objects.get(name="Demo class")
    assert list(group.instructors.values_list("username", flat=True)) == ["pitboss"]
    assert list(group.trainees.values_list("username", flat=True)) == ["trainee"]


def test_a_second_class_asks_for_the_demo_trainee_and_the_demo_pit_boss_answers(demo, client):
    from teaching.models import ClassJoinRequest, JoinRequestStatus

    swing = TrainingClass.objects.get(name="Swing shift class")
    assert list(swing.instructors.values_list("username", flat=True)) == ["pitboss2"]
    assert list(swing.trainees.values_list("username", flat=True)) == ["trainee2"]
    [asked] = ClassJoinRequest.objects.all()
    assert asked.training_class == swing
    assert asked.trainee.username == "trainee"
    assert asked.status == JoinRequestStatus.PENDING
    client.force_login(get_user_model().objects.get(username="pitboss"))
    page = client.get("/teach/classes/").content.decode()
    assert "Requests for your trainees" in page
    assert "Covering the swing shift" in page
    # Run again: one request, not two.
    run()
    assert ClassJoinRequest.objects.count() == 1


def test_it_assigns_practice_drills_sealed_table_tests_and_a_sealed_speed_round(demo):
    assignments = Assignment.objects.filter(trainee__username="trainee").select_related("drill")
    by_mode: dict[str, list[Drill]] = {}
    for a in assignments:
        by_mode.setdefault(a.mode, []).append(a.drill)
        assert a.assigned_by.username == "pitboss"
        assert a.due_at is not None
    assert sorted(by_mode) == ["exam", "practice", "speed"]
    tested = {exam.certifies.name for exam in by_mode["exam"]}
    assert tested == {
        "casino-shoe",
        "european-enhc-6deck",
        "casino-single-deck-6to5",
        "scarne-casino",
    }
    for exam in by_mode["exam"]:
        assert exam.purpose == "exam"
        assert exam.count >= 50
        assert exam.pass_mark == Decimal("95")
        assert blueprint_shortfalls(drill=exam) == []
    # Every table has its table test, assigned or not.
    assert Drill.objects.filter(purpose="exam").exclude(certifies=None).count() == 7
    [speed] = by_mode["speed"]
    assert speed.time_box_seconds == 300
    assert speed.purpose == "exam"
    # A pool five times the sitting (trainer.selectors.pools): no round dealt twice to one trainee.
    assert speed.drill_scenarios.count() >= 5 * speed.count
    chips, _casino_generated, generated, _casino_fixed, fixed = sorted(
        by_mode["practice"], key=lambda d: d.title
    )
    assert chips.title == "Chip work: Six-deck shoe"
    assert fixed.title == "Practice: the everyday situations"
    assert fixed.kind == "fixed"
    assert 6 <= fixed.drill_scenarios.count() <= 10
    skills = {s for link in fixed.drill_scenarios.all() for s in link.scenario.skills}
    assert len(skills) >= 6
    assert generated.kind == "generated"
    for doc in generate_documents(drill=generated, seed=1):
        rules.settle(doc)


def test_the_trainee_practises_casino_rulings_and_sits_its_table_test(demo):
    mine = Assignment.objects.filter(trainee__username="trainee").select_related("drill")
    given = {(a.drill.title, a.mode) for a in mine}
    assert ("Practice: Casino rulings, one of each question", "practice") in given
    assert ("Generated practice: Casino captures, builds and the count", "practice") in given
    assert ("Table test: Scarne's Casino", "exam") in given
    fixed = Drill.objects.get(title="Practice: Casino rulings, one of each question")
    assert fixed.kind == "fixed"
    assert fixed.game == "casino"
    scenarios = [link.scenario for link in fixed.drill_scenarios.order_by("position")]
    assert [s.slug for s in scenarios] == [
        "casino-001",
        "casino-026",
        "casino-047",
        "casino-073",
        "casino-074",
        "casino-082",
    ]
    # One of each of the five questions a Casino dealer is asked.
    casino = game_named("casino")
    kinds = {item["kind"] for s in scenarios for item in casino.answer_key(s.document)}
    assert kinds == {"is_legal", "may_take", "legal_plays", "score_hand", "rule_on"}
    generated = Drill.objects.get(title="Generated practice: Casino captures, builds and the count")
    assert (generated.kind, generated.purpose, generated.count) == ("generated", "practice", 8)
    assert generated.profile_version.profile.name == "scarne-casino"
    assert generated.skills == ["capture-sum", "single-build", "multiple-build", "scoring"]
    dealt = generate_documents(drill=generated, seed=3)
    assert len(dealt) == 8
    assert {doc["rules"] for doc in dealt} == {"scarne-casino"}
    table_test = Drill.objects.get(certifies__name="scarne-casino", is_active=True)
    assert (table_test.purpose, table_test.pass_mark) == ("exam", Decimal("95"))
    assert blueprint_shortfalls(drill=table_test) == []


def test_the_speed_round_deals_blackjack_only(demo):
    speed = Drill.objects.get(title="Speed round: five minutes of easy rounds", is_active=True)
    assert {link.scenario.game for link in speed.drill_scenarios.all()} == {"blackjack"}


def test_every_table_has_its_chip_work_to_practise_paying_colouring_up_and_changing(demo):
    drills = Drill.objects.filter(title__startswith="Chip work: ").select_related(
        "profile_version__profile"
    )
    assert {d.profile_version.profile.name for d in drills} == set(rules.PROFILES)
    for drill in drills:
        assert drill.purpose == "practice"
        kinds = set()
        for doc in generate_documents(drill=drill, seed=7):
            kinds.update(question["kind"] for question in rules.answer_key(doc))
        # All three chip questions, under this table's chip set and payout rule.
        assert kinds >= rules.CHIP_KINDS, (drill.title, kinds)


def test_running_it_again_duplicates_nothing(demo):
    counts = (Drill.objects.count(), Assignment.objects.count(), Scenario.objects.count())
    again = run()
    assert (Drill.objects.count(), Assignment.objects.count(), Scenario.objects.count()) == counts
    assert "already there" in again
    assert "new" not in again.split("Assigned to")[1]


def test_it_prints_a_summary(demo):
    assert "shoe-school-demo" in demo
    assert "Demo class" in demo
    assert "Table test: " in demo
    assert "(50 rounds, new)" in demo
    assert "practice  Practice: Casino rulings, one of each question (6 rounds, new)" in demo
    assert "Generated practice: Casino captures, builds and the count (8 rounds, new)" in demo
    assert "Table test: Scarne's Casino" in demo
    assert "No table test" not in demo


def test_it_refuses_outside_development(db):
    with override_settings(ENVIRONMENT="production"), pytest.raises(CommandError):
        call_command("setup_demo", stdout=io.StringIO())
    assert not Drill.objects.exists()


def test_the_speed_round_is_a_pool_five_times_its_sitting_even_after_an_older_set_up(demo):
    from teaching.management.commands.setup_demo import SPEED
    from trainer.models import DrillScenario, Mode
    from trainer.services.attempts import attempt_start

    # An older set-up's speed round: 20 a sitting from a pool of 40 (issue #23).
    Drill.objects.filter(title=SPEED).update(is_active=False)
    old = Drill.objects.create(title=SPEED, kind="fixed", purpose="exam", count=20)
    easy = Scenario.objects.filter(is_active=True, difficulty__lte=2).order_by("slug")[:40]
    DrillScenario.objects.bulk_create(
        DrillScenario(drill=old, scenario=s, position=n) for n, s in enumerate(easy, start=1)
    )
    run()
    old.refresh_from_db()
    assert not old.is_active
    speed = Drill.objects.get(title=SPEED, is_active=True)
    assert (speed.count, speed.drill_scenarios.count()) == (20, 100)
    trainee = get_user_model().objects.get(username="trainee")
    assignment = Assignment.objects.get(drill=speed, trainee=trainee)
    attempt = attempt_start(trainee=trainee, drill=speed, mode=Mode.SPEED, assignment=assignment)
    assert attempt.items.count() == 20


def test_the_demo_has_a_round_the_pit_boss_staged_with_a_rule_change_and_a_cut_card(demo):
    authored = Scenario.objects.get(slug="demo-natural-at-6-to-5-cut-card-out")
    assert authored.created_by is not None
    assert authored.created_by.username == "pitboss"
    assert authored.document["rules"]["overrides"] == {"blackjack_pays": "6:5"}
    assert authored.document["cut_card_at"] == 4


def test_an_invited_pit_boss_waits_on_the_administration_pages(demo, client):
    """Issue #24: the administrator's demo shows someone invited who has not chosen a
    password, to send the invitation again to."""
    newhire = get_user_model().objects.get(username="newhire")
    assert roles_of(newhire) == {Role.PIT_BOSS}
    assert not newhire.has_usable_password()
    client.force_login(get_user_model().objects.get(username="admin"))
    page = client.get("/administration/").content.decode()
    assert "1 person has not chosen a password yet" in page
    person = client.get(f"/administration/people/{newhire.pk}/").content.decode()
    assert "Send the invitation again" in person
    run()
    assert get_user_model().objects.filter(username="newhire").count() == 1


def test_it_leaves_one_finished_class_session_with_its_summary(demo, client):
    from trainer.models import Attempt, LiveSession, Mode

    [session] = LiveSession.objects.all()
    assert session.state == "ended"
    assert session.training_class.name == "Demo class"
    attempt = Attempt.objects.get(live_session=session)
    assert attempt.mode == Mode.CLASS_SESSION
    assert attempt.status == "submitted"
    tallies = [q.tally for q in session.questions.filter(opened_at__isnull=False)]
    assert [t["right"] for t in tallies] == [1, 1, 0, 1]
    run()  # again: still the one session
    assert LiveSession.objects.count() == 1
    client.force_login(get_user_model().objects.get(username="pitboss"))
    summary = client.get(f"/teach/live/{session.pk}/summary/").content.decode()
    assert "Who attended (1)" in summary
