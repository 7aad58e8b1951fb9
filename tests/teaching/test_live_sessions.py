"""Live class sessions: the services, every refusal, and the records they leave."""

from __future__ import annotations

import pytest

from core.errors import ConflictError, ForbiddenError, NotFoundError, ProductError
from ledger.events import Event, Subject
from ledger.models import LedgerEntry
from teaching.services.live_questions import (
    live_session_close,
    live_session_end,
    live_session_names,
    live_session_next,
    live_session_pause,
    live_session_question_open,
    live_session_resume,
    live_session_reveal,
)
from teaching.services.live_sessions import (
    code_normal,
    live_session_join,
    live_session_open,
)
from tests.audit.factories import TrainingClassFactory
from tests.factories import UserFactory
from tests.trainer.factories import DrillFactory, natural_document, simple_document
from trainer.models import (
    Attempt,
    AttemptStatus,
    Decision,
    GradingStatus,
    LiveQuestionState,
    LiveSession,
    Mode,
)
from trainer.services.attempts import attempt_start, decision_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def drill():
    return DrillFactory(documents=[natural_document(), simple_document()])


@pytest.fixture
def session(pit, pit_boss, drill):
    return live_session_open(user=pit_boss, training_class=pit["mine"], drill=drill)


def key_of(session: LiveSession, number: int) -> dict:
    question = session.questions.get(number=number)
    return next(
        k for k in session.rounds[question.position - 1]["answer_key"] if k["n"] == question.n
    )


def answer(attempt: Attempt, session: LiveSession, number: int, given=None):
    question = session.questions.get(number=number)
    key = key_of(session, number)
    return decision_record(
        attempt=attempt,
        user=attempt.trainee,
        position=question.position,
        question=question.n,
        answer=key["expected"] if given is None else given,
    )


def test_an_instructor_opens_a_session_of_their_class_with_a_short_code(session, drill):
    assert session.drill == drill
    assert len(session.code) == 6
    assert code_normal(session.code.lower()) == session.code
    assert code_normal(f" {session.code[:3].lower()}-{session.code[3:]} ") == session.code
    questions = list(session.questions.all())
    assert [q.number for q in questions] == list(range(1, len(questions) + 1))
    assert all(q.state == LiveQuestionState.WAITING for q in questions)
    assert session.current == 1
    entry = LedgerEntry.objects.get(event=Event.LIVE_SESSION_OPENED)
    assert entry.subject_type == Subject.LIVE_SESSION
    assert entry.payload["questions"] == len(questions)


def test_another_class_instructor_neither_opens_nor_drives_it(pit, session, drill, other_boss):
    with pytest.raises(ForbiddenError):
        live_session_open(user=other_boss, training_class=pit["mine"], drill=drill)
    for drive in (live_session_question_open, live_session_close, live_session_end):
        with pytest.raises(ForbiddenError):
            drive(session=session, user=other_boss)
    with pytest.raises(ForbiddenError):
        live_session_names(session=session, user=other_boss, shown=True)


def test_an_administrator_drives_any_class_session(pit, admin_user, drill):
    session = live_session_open(user=admin_user, training_class=pit["theirs"], drill=drill)
    live_session_question_open(session=session, user=admin_user)
    assert session.questions.get(number=1).state == LiveQuestionState.OPEN


def test_a_second_session_of_the_class_is_refused_until_the_first_ends(pit, pit_boss, session):
    with pytest.raises(ConflictError) as refused:
        live_session_open(user=pit_boss, training_class=pit["mine"], drill=session.drill)
    assert refused.value.code == "session_running"
    live_session_end(session=session, user=pit_boss)
    live_session_open(user=pit_boss, training_class=pit["mine"], drill=session.drill)


def test_a_sealed_exam_is_not_played_in_front_of_the_room(pit, pit_boss):
    exam = DrillFactory(documents=[natural_document()], purpose="exam")
    with pytest.raises(ProductError) as refused:
        live_session_open(user=pit_boss, training_class=pit["mine"], drill=exam)
    assert refused.value.field == "drill"


def test_a_trainee_joins_by_code_in_any_case_and_again_gets_the_same_attempt(session, trainee):
    attempt = live_session_join(user=trainee, code=session.code.lower())
    assert attempt.mode == Mode.CLASS_SESSION
    assert attempt.live_session == session
    assert attempt.get_mode_display() == "Class session"
    assert live_session_join(user=trainee, session=session).pk == attempt.pk
    assert Attempt.objects.filter(trainee=trainee).count() == 1
    assert LedgerEntry.objects.filter(event=Event.LIVE_SESSION_JOINED).count() == 1


def test_a_trainee_of_another_class_cannot_join(session, other_trainee):
    with pytest.raises(NotFoundError):
        live_session_join(user=other_trainee, code=session.code)
    with pytest.raises(NotFoundError):
        live_session_join(user=other_trainee, code="NOSUCH")


def test_a_trainee_is_in_one_live_session_at_a_time(pit, session, trainee, drill, admin_user):
    live_session_join(user=trainee, session=session)
    second_class = TrainingClassFactory(name="Night", trainees=[trainee], instructors=[])
    other = live_session_open(user=admin_user, training_class=second_class, drill=drill)
    with pytest.raises(ConflictError) as refused:
        live_session_join(user=trainee, session=other)
    assert refused.value.code == "in_another_session"


def test_a_class_session_attempt_is_never_started_as_a_drill(trainee, drill):
    with pytest.raises(ForbiddenError):
        attempt_start(trainee=trainee, drill=drill, mode=Mode.CLASS_SESSION)


def test_answers_only_to_the_open_question_the_rest_409(session, pit_boss, trainee):
    attempt = live_session_join(user=trainee, session=session)
    with pytest.raises(ConflictError) as not_yet:
        answer(attempt, session, 1)
    assert not_yet.value.code == "not_current"
    live_session_question_open(session=session, user=pit_boss)
    decision, created = answer(attempt, session, 1)
    assert created
    assert decision.late is False
    assert decision.time_limit_ms is None
    opened = session.questions.get(number=1).opened_at
    assert decision.shown_at == opened
    # The same answer again (a reconnect) is the same decision, never a second one.
    again, created = answer(attempt, session, 1)
    assert (again.pk, created) == (decision.pk, False)
    with pytest.raises(ConflictError) as changed:
        answer(attempt, session, 1, given={"action": "pay", "amount": "1.00"})
    assert changed.value.code == "already_answered"
    live_session_close(session=session, user=pit_boss)
    assert Decision.objects.filter(item__attempt=attempt).count() == 1


def test_a_closed_question_takes_no_answer(session, pit_boss, trainee):
    attempt = live_session_join(user=trainee, session=session)
    live_session_question_open(session=session, user=pit_boss)
    live_session_close(session=session, user=pit_boss)
    with pytest.raises(ConflictError) as refused:
        answer(attempt, session, 1)
    assert refused.value.code == "not_current"


def test_the_order_of_a_question_reveal_before_close_next_while_open(session, pit_boss):
    with pytest.raises(ConflictError):
        live_session_reveal(session=session, user=pit_boss)
    live_session_question_open(session=session, user=pit_boss)
    with pytest.raises(ConflictError):
        live_session_question_open(session=session, user=pit_boss)
    with pytest.raises(ConflictError) as refused:
        live_session_reveal(session=session, user=pit_boss)
    assert refused.value.code == "not_closed"
    with pytest.raises(ConflictError):
        live_session_next(session=session, user=pit_boss)
    with pytest.raises(ConflictError):
        live_session_pause(session=session, user=pit_boss)
    live_session_close(session=session, user=pit_boss)
    live_session_reveal(session=session, user=pit_boss)
    question = session.questions.get(number=1)
    assert question.opened_at < question.closed_at < question.revealed_at
    following = live_session_next(session=session, user=pit_boss)
    assert following.number == 2


def test_a_pause_holds_the_next_question_until_resumed(session, pit_boss):
    live_session_pause(session=session, user=pit_boss)
    with pytest.raises(ConflictError) as refused:
        live_session_question_open(session=session, user=pit_boss)
    assert refused.value.code == "paused"
    live_session_resume(session=session, user=pit_boss)
    live_session_question_open(session=session, user=pit_boss)


def test_the_close_counts_the_room_without_names(session, pit_boss, trainee, pit):
    third = UserFactory(username="tess", roles=["trainee"])
    pit["mine"].trainees.add(third)
    right = live_session_join(user=trainee, session=session)
    wrong = live_session_join(user=third, session=session)
    live_session_question_open(session=session, user=pit_boss)
    answer(right, session, 1)
    answer(wrong, session, 1, given={"action": "pay", "amount": "25.00"})
    live_session_close(session=session, user=pit_boss)
    tally = session.questions.get(number=1).tally
    assert tally["answered"] == 2
    assert tally["right"] == 1
    assert sum(tally["mistakes"].values()) == 1
    assert sorted(count for _, count, _ in tally["answers"]) == [1, 1]
    assert "tina" not in str(tally)
    assert "tess" not in str(tally)


def test_a_late_joiner_comes_in_at_the_current_question(session, pit_boss, trainee):
    live_session_question_open(session=session, user=pit_boss)
    live_session_close(session=session, user=pit_boss)
    live_session_next(session=session, user=pit_boss)
    live_session_question_open(session=session, user=pit_boss)
    attempt = live_session_join(user=trainee, session=session)
    decision, created = answer(attempt, session, 2)
    assert created
    assert decision.shown_at == session.questions.get(number=2).opened_at


def test_the_end_submits_every_attempt_for_grading(session, pit_boss, trainee, pit):
    attempt = live_session_join(user=trainee, session=session)
    live_session_question_open(session=session, user=pit_boss)
    answer(attempt, session, 1)
    ended = live_session_end(session=session, user=pit_boss)
    attempt.refresh_from_db()
    assert ended.state == "ended"
    assert attempt.status == AttemptStatus.SUBMITTED
    assert attempt.grading_status == GradingStatus.PENDING
    assert session.questions.get(number=1).closed_at is not None
    with pytest.raises(ConflictError):
        live_session_question_open(session=session, user=pit_boss)
    latecomer = UserFactory(username="late", roles=["trainee"])
    session.training_class.trainees.add(latecomer)
    with pytest.raises(ConflictError) as late:
        live_session_join(user=latecomer, session=session)
    assert late.value.code == "session_ended"
    events = set(LedgerEntry.objects.values_list("event", flat=True))
    assert {Event.LIVE_SESSION_ENDED, Event.ATTEMPT_SUBMITTED, Event.DECISION_RECORDED} <= events


def test_a_session_from_a_chosen_list_of_scenarios(pit, pit_boss):
    from tests.trainer.factories import ScenarioFactory

    chosen = [ScenarioFactory(document=natural_document("live-a")), ScenarioFactory()]
    session = live_session_open(
        user=pit_boss, training_class=pit["mine"], scenarios=chosen, title="Tuesday's naturals"
    )
    assert session.drill.title == "Tuesday's naturals"
    assert [one["scenario"] for one in session.rounds] == [s.pk for s in chosen]
    with pytest.raises(ProductError) as both:
        live_session_open(
            user=pit_boss, training_class=pit["mine"], drill=session.drill, scenarios=chosen
        )
    assert both.value.field == "drill"


def test_a_trainee_reads_only_their_own_seat(session, trainee, other_trainee, pit):
    from teaching.selectors.live_sessions import seat_for_trainee, seat_status

    attempt = live_session_join(user=trainee, session=session)
    assert seat_status(attempt_id=attempt.pk, user=trainee)["version"] == session.version
    with pytest.raises(NotFoundError):
        seat_for_trainee(attempt_id=attempt.pk, user=other_trainee)
    with pytest.raises(NotFoundError):
        seat_status(attempt_id=attempt.pk, user=other_trainee)
