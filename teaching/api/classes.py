"""Classes and rosters in the API, for pit bosses (the classes they teach) and
administrators (all of them): the same services and refusals as the pages under
/teach/classes/. Someone else's class answers 404, as a missing one does."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.roles import Role, has_role
from teaching.selectors import classes as selectors
from teaching.services import classes as services
from trainer.api.fields import TextField
from trainer.api.serializers import ErrorOutput, StrictSerializer
from trainer.models import TrainingClass


class IsClassManager(BasePermission):
    message = "only pit bosses and administrators may manage classes"

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and has_role(request.user, Role.PIT_BOSS, Role.ADMIN))


_ERRORS = {
    400: OpenApiResponse(ErrorOutput, description="Bad input: `field` names what is wrong."),
    403: OpenApiResponse(
        ErrorOutput, description="Not signed in, or not a pit boss or administrator."
    ),
    404: OpenApiResponse(ErrorOutput, description="No such class among yours (or trainee on it)."),
    409: OpenApiResponse(
        ErrorOutput,
        description="Already so: the name is taken, or the trainee is on the class; or the "
        "trainee is on another instructor's class (`on_another_class`: ask with a join "
        "request, or an administrator transfers them).",
    ),
    413: OpenApiResponse(ErrorOutput, description="The body is over the upload limit."),
    415: OpenApiResponse(ErrorOutput, description="The body is not application/json."),
    429: OpenApiResponse(
        ErrorOutput,
        description="Too many wrong passwords: signing in is paused for this account or "
        "address; the Retry-After header says for how many seconds.",
    ),
}


def errors(*codes: int) -> dict[int | str, Any]:
    return {code: _ERRORS[code] for code in (403, 429, *codes)}


def body_errors(*codes: int) -> dict[int | str, Any]:
    return errors(400, 413, 415, *codes)


def _user(request: Request) -> AbstractBaseUser:
    user: AbstractBaseUser = request.user  # type: ignore[assignment]
    return user


def _link_base(request: Request) -> str:
    return request.build_absolute_uri("/").rstrip("/")


# Bodies.


class ClassOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    trainees = serializers.IntegerField(source="trainee_count", help_text="How many trainees.")
    instructors = serializers.IntegerField(
        source="instructor_count", help_text="How many instructors."
    )
    created_at = serializers.DateTimeField()


class PersonOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()


class RosterEntryOutput(PersonOutput):
    email = serializers.CharField()
    last_activity = serializers.DateTimeField(
        allow_null=True, help_text="When they last started an attempt; null if never."
    )


class ClassDetailOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    created_at = serializers.DateTimeField()
    instructors = PersonOutput(many=True)
    trainees = RosterEntryOutput(many=True)


class ClassInput(StrictSerializer):
    name = TextField(max_length=services.NAME_MAX, help_text="The class's name.")


class TraineeAddInput(StrictSerializer):
    username = TextField(max_length=150, help_text="An existing trainee's username.")


class InviteInput(StrictSerializer):
    username = TextField(max_length=150)
    email = TextField(max_length=254, help_text="Where the invitation goes.")
    first_name = TextField(max_length=150, required=False, allow_blank=True)
    last_name = TextField(max_length=150, required=False, allow_blank=True)


def _column(help_text: str) -> serializers.CharField:
    return TextField(max_length=254, required=False, allow_blank=True, help_text=help_text)


# "class" is a keyword in Python, so this body's fields are given by name.
RosterRowInput = type(
    "RosterRowInput",
    (StrictSerializer,),
    {
        "username": _column("The trainee's username (an existing trainee, or a new one)."),
        "first_name": _column("A new trainee's first name."),
        "last_name": _column("A new trainee's last name."),
        "email": _column("A new trainee's e-mail address: the invitation goes there."),
        "class": _column("The name of a class you teach."),
    },
)


class RosterInput(StrictSerializer):
    rows = serializers.ListField(
        child=RosterRowInput(),
        required=False,
        max_length=services.ROSTER_MAX_ROWS,
        help_text="The roster as rows; a problem's `line` is the row's position from 1.",
    )
    csv = TextField(
        required=False,
        trim_whitespace=False,
        max_length=1_000_000,
        help_text="The roster as CSV text with the header username, first_name, last_name, "
        "email, class; a problem's `line` is the line of the text (the header is line 1).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("rows" in attrs) == ("csv" in attrs):
            raise serializers.ValidationError("send either rows or csv, not both or neither")
        return attrs


class RosterReportOutput(serializers.Serializer[Any]):
    rows = serializers.IntegerField(help_text="How many rows were read.")
    invited = serializers.ListField(child=serializers.CharField(), help_text="New accounts.")
    added = serializers.ListField(
        child=serializers.CharField(), help_text="Usernames put on a class."
    )
    already = serializers.ListField(
        child=serializers.CharField(), help_text="Usernames already on their class."
    )


class RosterProblemOutput(serializers.Serializer[Any]):
    line = serializers.IntegerField()
    column = serializers.CharField(allow_null=True)
    message = serializers.CharField()


class RosterRefusalOutput(ErrorOutput):
    problems = RosterProblemOutput(
        many=True, required=False, help_text="Every refused row, by line and column."
    )


# Views.


class ManagerView(APIView):
    permission_classes = (IsAuthenticated, IsClassManager)


def _detail(training_class: TrainingClass) -> dict[str, Any]:
    return ClassDetailOutput(
        {
            "id": training_class.pk,
            "name": training_class.name,
            "created_at": training_class.created_at,
            "instructors": selectors.class_instructors(training_class=training_class),
            "trainees": selectors.class_roster(training_class=training_class),
        }
    ).data


class ClassListView(ManagerView, generics.ListAPIView[TrainingClass]):
    """GET: the classes you teach (an administrator: all). POST: create a class."""

    serializer_class = ClassOutput

    def get_queryset(self) -> QuerySet[TrainingClass]:
        return selectors.classes_managed_by(user=_user(self.request))

    @extend_schema(responses={200: ClassOutput(many=True), **errors(400)})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        request=ClassInput,
        responses={201: ClassDetailOutput, **body_errors(409)},
        examples=[OpenApiExample("New class", value={"name": "Monday evening"})],
        description="Creates a class; a pit boss who creates one teaches it.",
    )
    def post(self, request: Request) -> Response:
        body = ClassInput(data=request.data)
        body.is_valid(raise_exception=True)
        created = services.training_class_create(
            actor=_user(request), name=body.validated_data["name"]
        )
        return Response(_detail(created), status=status.HTTP_201_CREATED)


class ClassDetailView(ManagerView):
    @extend_schema(responses={200: ClassDetailOutput, **errors(404)})
    def get(self, request: Request, class_id: int) -> Response:
        """A class: its instructors and its roster."""
        training_class = selectors.class_get_for_manager(class_id=class_id, user=request.user)
        return Response(_detail(training_class))

    @extend_schema(request=ClassInput, responses={200: ClassDetailOutput, **body_errors(404, 409)})
    def patch(self, request: Request, class_id: int) -> Response:
        """Rename a class."""
        training_class = selectors.class_get_for_manager(class_id=class_id, user=request.user)
        body = ClassInput(data=request.data)
        body.is_valid(raise_exception=True)
        services.training_class_rename(
            actor=_user(request), training_class=training_class, name=body.validated_data["name"]
        )
        return Response(_detail(training_class))


class ClassTraineesView(ManagerView):
    @extend_schema(
        request=TraineeAddInput,
        responses={201: ClassDetailOutput, **body_errors(404, 409)},
        examples=[OpenApiExample("Add", value={"username": "tina"})],
    )
    def post(self, request: Request, class_id: int) -> Response:
        """Put an existing trainee on the class's roster."""
        # Ownership first: someone else's class answers 404 whatever the body holds.
        training_class = selectors.class_get_for_manager(class_id=class_id, user=request.user)
        body = TraineeAddInput(data=request.data)
        body.is_valid(raise_exception=True)
        trainee = selectors.trainee_by_username(username=body.validated_data["username"])
        services.class_trainee_add(
            actor=_user(request), training_class=training_class, trainee=trainee
        )
        return Response(_detail(training_class), status=status.HTTP_201_CREATED)


class ClassTraineeView(ManagerView):
    @extend_schema(
        request=None, responses={204: OpenApiResponse(description="Removed."), **errors(404)}
    )
    def delete(self, request: Request, class_id: int, trainee_id: int) -> Response:
        """Take a trainee off the roster; their account and record stay."""
        training_class = selectors.class_get_for_manager(class_id=class_id, user=request.user)
        trainee = selectors.class_trainee_get(training_class=training_class, trainee_id=trainee_id)
        services.class_trainee_remove(
            actor=_user(request), training_class=training_class, trainee=trainee
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClassInvitationsView(ManagerView):
    @extend_schema(
        request=InviteInput,
        responses={201: RosterEntryOutput, **body_errors(404, 409)},
        examples=[
            OpenApiExample(
                "Invite",
                value={"username": "jdoe", "email": "jane.doe@example.com", "first_name": "Jane"},
            )
        ],
    )
    def post(self, request: Request, class_id: int) -> Response:
        """Make a new trainee account on this class and e-mail a link to choose a password."""
        training_class = selectors.class_get_for_manager(class_id=class_id, user=request.user)
        body = InviteInput(data=request.data)
        body.is_valid(raise_exception=True)
        trainee = services.trainee_invite(
            actor=_user(request),
            training_class=training_class,
            link_base=_link_base(request),
            **body.validated_data,
        )
        entry = {
            "id": trainee.pk,
            "username": trainee.username,
            "first_name": trainee.first_name,
            "last_name": trainee.last_name,
            "email": trainee.email,
            "last_activity": None,
        }
        return Response(RosterEntryOutput(entry).data, status=status.HTTP_201_CREATED)


class RosterImportView(ManagerView):
    @extend_schema(
        request=RosterInput,
        responses={
            200: RosterReportOutput,
            400: OpenApiResponse(
                RosterRefusalOutput,
                description="Bad input; for refused rows, `problems` names each by line and "
                "column, and nothing at all was written.",
            ),
            **errors(413, 415),
        },
        examples=[
            OpenApiExample(
                "Rows",
                value={
                    "rows": [
                        {
                            "username": "jdoe",
                            "first_name": "Jane",
                            "last_name": "Doe",
                            "email": "jane.doe@example.com",
                            "class": "Monday evening",
                        }
                    ]
                },
            ),
            OpenApiExample(
                "CSV",
                value={
                    "csv": "username,first_name,last_name,email,class\n"
                    "jdoe,Jane,Doe,jane.doe@example.com,Monday evening\n"
                },
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        """Apply a roster whole or not at all: existing trainees are put on their class, new
        ones invited by e-mail. One refused row and nothing is written."""
        body = RosterInput(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        if "csv" in data:
            rows = services.roster_rows_from_csv(text=data["csv"], field_name="csv")
        else:
            rows = [(n, row) for n, row in enumerate(data["rows"], 1)]
        report = services.roster_import(
            actor=_user(request), rows=rows, link_base=_link_base(request)
        )
        if not report.applied:
            first = report.problems[0]
            refusal = {
                "error": f"{len(report.problems)} problem(s) in the roster, nothing was written; "
                f"the first, line {first.line}: {first.message}",
                "field": "rows" if "rows" in data else "csv",
                "code": "invalid",
                "problems": [
                    {"line": p.line, "column": p.column, "message": p.message}
                    for p in report.problems
                ],
            }
            return Response(RosterRefusalOutput(refusal).data, status=status.HTTP_400_BAD_REQUEST)
        out = {
            "rows": report.rows,
            "invited": report.invited,
            "added": report.added,
            "already": report.already,
        }
        return Response(RosterReportOutput(out).data)
