"""A trainee of another instructor's class, in the API: join requests (the asking pit boss,
then that instructor's accept or decline) and an administrator's transfer. The same
services and refusals as the pages under /teach/classes/ (docs/security.md, *Class
boundaries*)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from core.roles import Role, has_role
from teaching.api.classes import (
    ClassDetailOutput,
    ManagerView,
    PersonOutput,
    TextField,
    _detail,
    _user,
    body_errors,
    errors,
)
from teaching.models import ClassJoinRequest
from teaching.selectors import classes as selectors
from teaching.services import classes as services
from teaching.services.classes.requests import NOTE_MAX
from trainer.api.serializers import StrictSerializer


class JoinRequestInput(StrictSerializer):
    username = TextField(max_length=150, help_text="The trainee's username.")
    note = TextField(
        max_length=NOTE_MAX,
        required=False,
        allow_blank=True,
        help_text="Why you ask, for their instructor.",
    )


class TransferInput(StrictSerializer):
    username = TextField(max_length=150, help_text="The trainee's username.")


class ClassRefOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class JoinRequestOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    training_class = ClassRefOutput(help_text="The class the trainee would join.")
    trainee = PersonOutput()
    requested_by = PersonOutput()
    requested_at = serializers.DateTimeField()
    note = serializers.CharField()
    status = serializers.ChoiceField(choices=["pending", "accepted", "declined"])
    decided_at = serializers.DateTimeField(allow_null=True)


class TransferOutput(serializers.Serializer[Any]):
    left = serializers.ListField(
        child=serializers.CharField(), help_text="The classes the trainee left, by name."
    )
    training_class = ClassDetailOutput()


def _request_out(request: ClassJoinRequest) -> dict[str, Any]:
    return JoinRequestOutput(request).data


class ClassJoinRequestsView(ManagerView):
    @extend_schema(
        request=JoinRequestInput,
        responses={201: JoinRequestOutput, **body_errors(404, 409)},
        examples=[OpenApiExample("Ask", value={"username": "tina", "note": "Moves to days"})],
    )
    def post(self, request: Request, class_id: int) -> Response:
        """Ask for a trainee who is on another instructor's class to join this one: their
        instructor accepts or declines it; until then nothing changes."""
        training_class = selectors.class_get_for_manager(class_id=class_id, user=request.user)
        body = JoinRequestInput(data=request.data)
        body.is_valid(raise_exception=True)
        trainee = selectors.trainee_by_username(username=body.validated_data["username"])
        created = services.class_join_request_create(
            actor=_user(request),
            training_class=training_class,
            trainee=trainee,
            note=body.validated_data.get("note", ""),
        )
        return Response(_request_out(created), status=status.HTTP_201_CREATED)


class JoinRequestsWaitingView(ManagerView):
    @extend_schema(responses={200: JoinRequestOutput(many=True), **errors()})
    def get(self, request: Request) -> Response:
        """The join requests waiting for your answer: those for trainees of the classes
        you teach (an administrator: all), newest first."""
        waiting = selectors.join_requests_waiting_for(user=request.user)
        return Response([_request_out(r) for r in waiting])


class JoinRequestAnswerView(ManagerView):
    accept = True

    @extend_schema(request=None, responses={200: JoinRequestOutput, **errors(404, 409)})
    def post(self, request: Request, request_id: int) -> Response:
        """Accept (the trainee joins the asker's class too) or decline a join request for
        a trainee of a class you teach."""
        found = selectors.join_request_get_for_answer(request_id=request_id, user=request.user)
        answer = (
            services.class_join_request_accept
            if self.accept
            else services.class_join_request_decline
        )
        return Response(_request_out(answer(actor=_user(request), request=found)))


class IsAdministrator(BasePermission):
    message = "only an administrator transfers a trainee between classes"

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and has_role(request.user, Role.ADMIN))


class ClassTransferView(ManagerView):
    permission_classes = (  # type: ignore[assignment]
        *ManagerView.permission_classes,
        IsAdministrator,
    )

    @extend_schema(
        request=TransferInput,
        responses={
            200: OpenApiResponse(TransferOutput, description="Transferred."),
            **body_errors(404, 409),
        },
        examples=[OpenApiExample("Transfer", value={"username": "tina"})],
    )
    def post(self, request: Request, class_id: int) -> Response:
        """Administrators only: move a trainee to this class, off every other class."""
        training_class = selectors.class_get_for_manager(class_id=class_id, user=request.user)
        body = TransferInput(data=request.data)
        body.is_valid(raise_exception=True)
        trainee = selectors.trainee_by_username(username=body.validated_data["username"])
        left = services.class_trainee_transfer(
            actor=_user(request), training_class=training_class, trainee=trainee
        )
        out = {"left": left, "training_class": _detail(training_class)}
        return Response(out)
