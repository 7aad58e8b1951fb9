"""The trainee's REST API: thin views that parse, call one service or selector, and render.

Permissions match the pages: trainees only, and an attempt that is not the caller's is a
404. Every error leaves through trainer.api.exceptions as ``{"error", "field", "code"}``.
"""

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import ProductError
from trainer.api import serializers as s
from trainer.api.answer_serializers import AnswerInput
from trainer.api.filters import MomentFilter, StrictFilterSet, choice_filter
from trainer.api.permissions import IsTrainee
from trainer.api.results_serializers import ResultsOutput
from trainer.api.selectors import (
    assignment_get_for_trainee,
    assignments_with_attempts,
    attempt_progress,
    drill_get,
)
from trainer.models import Assignment, Attempt, AttemptStatus, Drill, GradingStatus, Mode
from trainer.selectors.attempts import (
    attempt_get_for_user,
    attempt_results,
    attempt_with_question,
    attempts_for_trainee,
    practice_drills,
    round_feedback,
)
from trainer.services.attempts import (
    attempt_question_show,
    attempt_start,
    attempt_submit,
    decision_record,
    decision_record_showing_next,
)

_ERRORS = {
    400: OpenApiResponse(s.ErrorOutput, description="Bad input: `field` names what is wrong."),
    403: OpenApiResponse(s.ErrorOutput, description="Not signed in, or not a trainee."),
    404: OpenApiResponse(s.ErrorOutput, description="No such attempt (or not yours)."),
    409: OpenApiResponse(s.ErrorOutput, description="The attempt's state refuses this."),
    413: OpenApiResponse(s.ErrorOutput, description="The body is over the upload limit."),
    415: OpenApiResponse(s.ErrorOutput, description="The body is not application/json."),
    429: OpenApiResponse(
        s.ErrorOutput,
        description="Too many wrong passwords: signing in is paused for this account or "
        "address; the Retry-After header says for how many seconds.",
    ),
}


# The answering loop's serializers (a start, each question and answer, the submit and the
# results) are built once per worker: DRF deep-copies a serializer's fields for every
# instance, which cost a question or an answer more than writing its JSON
# (bench/profile_api.py). Safe to share: to_representation and run_validation keep nothing
# between calls (s.validated).
_START_IN = s.AttemptStartInput()
_ATTEMPT_OUT = s.AttemptOutput()
_QUESTION_OUT = s.QuestionResponseOutput()
_ANSWER_OUT = s.AnswerResponseOutput()
_ANSWER_IN = AnswerInput()
_RESULTS_OUT = ResultsOutput()


def errors(*codes: int) -> dict[int | str, Any]:
    # Any request may carry HTTP Basic credentials, so any may meet the password lockout.
    return {code: _ERRORS[code] for code in (403, 429, *codes)}


def body_errors(*codes: int) -> dict[int | str, Any]:
    """The errors of an operation that reads a JSON body: bad JSON, too big, not JSON."""
    return errors(400, 413, 415, *codes)


def _user(request: Request) -> AbstractBaseUser:
    # IsAuthenticated has run: the user is a real account, never AnonymousUser.
    user: AbstractBaseUser = request.user  # type: ignore[assignment]
    return user


# What a start or an answer may ask to be sent back with it (the `next` query parameter).
_NEXT_CHOICES = ("question",)


def _next_wanted(request: Request) -> bool:
    wanted = request.query_params.getlist("next")
    if not wanted:
        return False
    if len(wanted) > 1 or wanted[0] not in _NEXT_CHOICES:
        raise ProductError(
            "next takes one value: question (send the question asked now with the response)",
            field="next",
        )
    return True


def _next_parameter() -> OpenApiParameter:
    return OpenApiParameter(
        "next",
        str,
        enum=list(_NEXT_CHOICES),
        required=False,
        description="`question`: send back, as `next`, the question asked now (what "
        "GET …/question would return), its clock started. Ask for it only when "
        "you show it at once: it saves that request.",
    )


class TraineeView(APIView):
    permission_classes = (IsAuthenticated, IsTrainee)


class AssignmentFilter(StrictFilterSet):
    mode = choice_filter(Mode.choices)
    due_before = MomentFilter(field_name="due_at", lookup_expr="lte")
    due_after = MomentFilter(field_name="due_at", lookup_expr="gte")
    ranges = (("due_after", "due_before"),)

    class Meta:
        model = Assignment
        fields = ("mode", "due_before", "due_after")


class AssignmentListView(TraineeView, generics.ListAPIView[Assignment]):
    """Your assignments: the drill, the mode, the due date and your attempts at it."""

    serializer_class = s.AssignmentOutput
    filterset_class = AssignmentFilter

    def get_queryset(self) -> QuerySet[Assignment]:
        return assignments_with_attempts(user=_user(self.request))

    @extend_schema(responses={200: s.AssignmentOutput(many=True), **errors(400)})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class PracticeDrillListView(TraineeView, generics.ListAPIView[Drill]):
    """The drills you may practise without an assignment, by title: the department's and
    those made for you (a refresher made for another trainee is theirs alone)."""

    serializer_class = s.DrillOutput

    def get_queryset(self) -> QuerySet[Drill]:
        return practice_drills(user=_user(self.request), limit=None)

    @extend_schema(responses={200: s.DrillOutput(many=True), **errors(400)})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class AttemptFilter(StrictFilterSet):
    status = choice_filter(AttemptStatus.choices)
    mode = choice_filter(Mode.choices)
    grading_status = choice_filter(GradingStatus.choices)

    class Meta:
        model = Attempt
        fields = ("status", "mode", "grading_status")


class AttemptListView(TraineeView, generics.ListAPIView[Attempt]):
    """GET: your attempts, newest first. POST: start (or resume) an attempt."""

    serializer_class = s.AttemptOutput
    filterset_class = AttemptFilter

    def get_queryset(self) -> QuerySet[Attempt]:
        return attempts_for_trainee(user=_user(self.request))

    @extend_schema(responses={200: s.AttemptOutput(many=True), **errors(400)})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        request=s.AttemptStartInput,
        parameters=[_next_parameter()],
        responses={201: s.AttemptStartOutput, **body_errors(404, 409)},
        examples=[OpenApiExample("Practice", value={"drill": 1, "mode": "practice"})],
        description="Starts an attempt with every round dealt. If you already have an attempt "
        "of this drill in this mode (and assignment) in progress, that one is returned instead. "
        "With `?next=question` the response also carries the question asked now (`next`, as "
        "GET …/question returns it, its clock started): the start and the first question in "
        "one request.",
    )
    def post(self, request: Request) -> Response:
        then_show = _next_wanted(request)
        data = s.validated(_START_IN, request.data)
        user = _user(request)
        drill = drill_get(drill_id=data["drill"])
        assignment = (
            assignment_get_for_trainee(assignment_id=data["assignment"], user=user)
            if data.get("assignment")
            else None
        )
        attempt = attempt_start(trainee=user, drill=drill, mode=data["mode"], assignment=assignment)
        asked = _question_body(attempt.pk, user) if then_show else None
        shown = None if asked is None else _QUESTION_OUT.to_representation(asked)
        out = {**_detail(attempt), "next": shown}
        return Response(out, status=status.HTTP_201_CREATED)


def _detail(attempt: Attempt) -> dict[str, Any]:
    progress = attempt_progress(attempt=attempt)
    return {**_ATTEMPT_OUT.to_representation(attempt), "progress": progress}


class AttemptDetailView(TraineeView):
    @extend_schema(responses={200: s.AttemptDetailOutput, **errors(404)})
    def get(self, request: Request, attempt_id: int) -> Response:
        """One of your attempts: its status, grading status and progress."""
        attempt = attempt_get_for_user(attempt_id=attempt_id, user=request.user)
        return Response(_detail(attempt))


class AttemptQuestionView(TraineeView):
    @extend_schema(responses={200: s.QuestionResponseOutput, **errors(404)})
    def get(self, request: Request, attempt_id: int) -> Response:
        """The question being asked, without its answer; the first request starts its clock.

        `question` is null once every question is answered or the attempt is closed (a
        speed attempt past its time box is submitted as it stands).
        """
        return Response(_QUESTION_OUT.to_representation(_question_body(attempt_id, _user(request))))


def _question_body(attempt_id: int, user: AbstractBaseUser) -> dict[str, Any]:
    """The question being asked, shown (its first showing timed), for
    s.QuestionResponseOutput: GET …/question's body, and an answer's `next`."""
    # The attempt and the question being asked in one query (NotFoundError for anyone
    # else's attempt).
    asked = attempt_with_question(attempt_id=attempt_id, user=user)
    attempt = asked.attempt
    question = attempt_question_show(attempt=asked, user=user)
    if question is None:
        attempt.refresh_from_db(fields=["status", "grading_status"])
    return {
        "attempt": attempt.pk,
        "status": attempt.status,
        "deadline": attempt.deadline,
        "question": question,
    }


class AttemptAnswerView(TraineeView):
    @extend_schema(
        request=AnswerInput,
        parameters=[_next_parameter()],
        responses={
            201: s.AnswerResponseOutput,
            200: OpenApiResponse(
                s.AnswerResponseOutput, description="The same answer again: nothing new."
            ),
            **body_errors(404, 409),
        },
        examples=[
            OpenApiExample(
                "Settle a hand",
                value={"position": 1, "question": 2, "answer": {"action": "pay", "amount": "15"}},
            ),
            OpenApiExample(
                "Dealer play", value={"position": 1, "question": 1, "answer": {"answer": "stand"}}
            ),
            OpenApiExample(
                "Pay in chips",
                value={
                    "position": 1,
                    "question": 1,
                    "answer": {"action": "pay", "chips": ["25", "5", "5", "2.50"]},
                },
            ),
            OpenApiExample(
                "Colour up", value={"position": 1, "question": 2, "answer": {"chips": ["25", "5"]}}
            ),
        ],
    )
    def post(self, request: Request, attempt_id: int) -> Response:
        """Answer the question being asked. Sending the same answer again changes nothing.

        With `?next=question` the response also carries the question asked now (`next`,
        as GET …/question returns it, its clock started): one request a question instead
        of two.
        """
        try:
            then_show = _next_wanted(request)
            data = s.validated(_ANSWER_IN, request.data)
        except Exception:
            # Ownership first: someone else's attempt answers 404 whatever the body holds.
            attempt_get_for_user(attempt_id=attempt_id, user=request.user)
            raise
        # The attempt is read once, under its lock: NotFoundError for anyone else's.
        given = {
            "attempt": attempt_id,
            "user": _user(request),
            "position": data["position"],
            "question": data["question"],
            "answer": data["answer"],
        }
        if then_show:
            decision, created, after = decision_record_showing_next(**given)
        else:
            # Nothing more is shown: the next question's clock waits for its GET.
            (decision, created), after = decision_record(**given), None
        item = decision.item
        attempt = item.attempt
        complete = item.completed_at is not None
        feedback = None
        if complete and attempt.mode == Mode.PRACTICE:
            feedback = round_feedback(attempt=attempt, position=data["position"], item=item)
        if then_show and after is None:
            # Not known under the answer's lock (the next round's, say): read after the
            # decision committed, as GET …/question reads it.
            after = _question_body(attempt_id, _user(request))
        out = {
            "decision": decision,
            "round_complete": complete,
            "feedback": feedback,
            "next": after,
        }
        return Response(_ANSWER_OUT.to_representation(out), status=201 if created else 200)


class AttemptSubmitView(TraineeView):
    @extend_schema(request=None, responses={202: s.AttemptDetailOutput, **errors(404, 409)})
    def post(self, request: Request, attempt_id: int) -> Response:
        """Close the attempt and queue its grading; unanswered questions count as missed."""
        # The attempt is read once, under its lock: NotFoundError for anyone else's.
        submitted = attempt_submit(attempt=attempt_id, user=_user(request))
        return Response(_detail(submitted), status=status.HTTP_202_ACCEPTED)


class AttemptResultsView(TraineeView):
    @extend_schema(responses={200: ResultsOutput, **errors(404)})
    def get(self, request: Request, attempt_id: int) -> Response:
        """The grading status and, once graded, the score and every question's grade."""
        attempt = attempt_get_for_user(attempt_id=attempt_id, user=request.user)
        results = attempt_results(attempt=attempt, user=request.user)
        run = results.run
        body = {
            "attempt": attempt.pk,
            "mode": attempt.mode,
            "status": attempt.grading_status,
            "error": attempt.grading_error,
            "score": run.score if run else None,
            "passed": run.passed if run else None,
            "graded_at": run.finished_at if run else None,
            "questions": run.questions if run else None,
            "correct": run.correct if run else None,
            "overpaid": run.overpaid if run and not results.sealed else None,
            "underpaid": run.underpaid if run and not results.sealed else None,
            "points": results.points,
            "sealed": results.sealed,
            "sealed_until": results.pool.until,
            "not_reached": results.not_reached,
            "skills": results.skills,
            "grades": results.grades,
        }
        return Response(_RESULTS_OUT.to_representation(body))
