"""The instructor's assignment API under /api/teach/assignments/: list and create,
detail, reassign, cancel and the progress board. Pit bosses (their classes' and their
trainees' assignments) and administrators, as on the /teach/ pages; anyone else's
assignment is a 404. The assigner is always the caller."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import QuerySet
from django.utils.dateparse import parse_datetime
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import generics, serializers, status
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.dates import house_moment
from core.errors import NotFoundError, ProductError
from core.roles import Role, has_role
from teaching.selectors import assignments as assignment_sel
from teaching.services.assignments import (
    assignment_cancel,
    assignment_create,
    assignment_reassign,
)
from trainer.api.filters import StrictFilterSet, choice_filter
from trainer.api.serializers import StrictIntegerField, StrictSerializer, choice_message
from trainer.api.views import _user, body_errors, errors
from trainer.models import ASSIGNED_MODE_CHOICES, Assignment, Drill, Mode
from trainer.selectors import visibility

_MOST_OFFSET = dt.timedelta(hours=14)


class IsInstructor(BasePermission):
    message = "only pit bosses and administrators may use this endpoint"

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and has_role(request.user, Role.PIT_BOSS, Role.ADMIN))


class InstructorView(APIView):
    permission_classes = (IsAuthenticated, IsInstructor)


@extend_schema_field({"type": "string", "format": "date-time"})
class MomentInput(serializers.Field):
    """An ISO 8601 date and time: with its offset, as given; without one, in the house's
    time zone (settings.TIME_ZONE, as the pages read a typed time). A time the clocks skip
    there is refused."""

    def to_internal_value(self, data: Any) -> dt.datetime:
        if not isinstance(data, str):
            raise serializers.ValidationError("give a date and time in ISO 8601, as a string")
        try:
            moment = parse_datetime(data)
        except ValueError:
            moment = None
        if moment is None:
            raise serializers.ValidationError(
                "give a date and time in ISO 8601 (2030-05-01T18:00, or with its offset: "
                "2030-05-01T18:00:00+01:00)"
            )
        offset = moment.utcoffset()
        if offset is not None and abs(offset) > _MOST_OFFSET:
            raise serializers.ValidationError(
                "the time zone offset must be between -12:00 and +14:00"
            )
        try:
            return house_moment(moment, field=self.field_name or "due_at").astimezone(dt.UTC)
        except ProductError as error:
            raise serializers.ValidationError(error.message) from None
        except OverflowError:
            raise serializers.ValidationError("the date is out of range") from None


class AssignInput(StrictSerializer):
    drill = StrictIntegerField(min_value=1)
    mode = serializers.ChoiceField(
        choices=ASSIGNED_MODE_CHOICES,
        error_messages={"invalid_choice": choice_message(ASSIGNED_MODE_CHOICES)},
    )
    trainee = StrictIntegerField(min_value=1, required=False, allow_null=True)
    training_class = StrictIntegerField(min_value=1, required=False, allow_null=True)
    due_at = MomentInput(required=False, allow_null=True)
    max_sittings = StrictIntegerField(required=False, allow_null=True)
    cooldown_hours = StrictIntegerField(required=False, allow_null=True)


class ReassignInput(StrictSerializer):
    max_sittings = StrictIntegerField(
        required=False, allow_null=True, help_text="null: no limit; left out: unchanged."
    )
    due_at = MomentInput(
        required=False, allow_null=True, help_text="null: no due date; left out: unchanged."
    )


class CellOutput(serializers.Serializer[Any]):
    assignment = serializers.IntegerField()
    status = serializers.CharField(
        help_text="not_started, in_progress, submitted, passed or overdue."
    )
    last_activity = serializers.DateTimeField(allow_null=True)


class BoardRowOutput(serializers.Serializer[Any]):
    trainee = serializers.IntegerField()
    name = serializers.CharField()
    cells = CellOutput(many=True, help_text="Only the assignments that are this trainee's.")


class BoardOutput(serializers.Serializer[Any]):
    assignments = serializers.ListField(child=serializers.IntegerField())
    rows = BoardRowOutput(many=True)


class TeachAssignmentOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    drill = serializers.IntegerField(source="drill_id")
    drill_title = serializers.CharField(source="drill.title")
    mode = serializers.CharField()
    trainee = serializers.IntegerField(source="trainee_id", allow_null=True)
    training_class = serializers.IntegerField(source="training_class_id", allow_null=True)
    due_at = serializers.DateTimeField(allow_null=True)
    max_sittings = serializers.IntegerField(allow_null=True)
    cooldown_hours = serializers.IntegerField()
    assigned_by = serializers.IntegerField(source="assigned_by_id", allow_null=True)
    created_at = serializers.DateTimeField()
    cancelled_at = serializers.DateTimeField(allow_null=True)


class TeachAssignmentFilter(StrictFilterSet):
    mode = choice_filter(Mode.choices)
    # true: the cancelled ones only; false: the live ones only. A choice, not django-filter's
    # boolean, which would read "null" as no filter at all.
    cancelled = choice_filter((("true", "true"), ("false", "false")), method="by_cancelled")

    class Meta:
        model = Assignment
        fields = ("mode", "cancelled")

    def by_cancelled(
        self, queryset: QuerySet[Assignment], name: str, value: str
    ) -> QuerySet[Assignment]:
        return queryset.filter(cancelled_at__isnull=value == "false")


class TeachAssignmentListView(InstructorView, generics.ListAPIView[Assignment]):
    """GET: the assignments you manage, newest first. POST: assign a drill."""

    serializer_class = TeachAssignmentOutput
    filterset_class = TeachAssignmentFilter

    def get_queryset(self) -> QuerySet[Assignment]:
        return assignment_sel.assignments_managed_by(user=self.request.user)

    @extend_schema(responses={200: TeachAssignmentOutput(many=True), **errors(400)})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        request=AssignInput,
        responses={201: TeachAssignmentOutput, **body_errors(404)},
        examples=[
            OpenApiExample(
                "To a class",
                value={
                    "drill": 1,
                    "mode": "practice",
                    "training_class": 2,
                    "due_at": "2030-05-01T18:00:00+01:00",
                },
            )
        ],
        description="Assign a drill to a class you teach or to one of its trainees (exactly "
        "one of `trainee` and `training_class`). You are recorded as the assigner.",
    )
    def post(self, request: Request) -> Response:
        body = AssignInput(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        user = _user(request)
        drill = Drill.objects.filter(pk=data["drill"], is_active=True).first()
        if drill is None:
            raise NotFoundError(f"no such drill: {data['drill']}", field="drill")
        trainee = training_class = None
        if data.get("trainee"):
            trainee = visibility.trainees_visible_to(user=user).filter(pk=data["trainee"]).first()
            if trainee is None:
                raise NotFoundError("no such trainee among yours", field="trainee")
        if data.get("training_class"):
            training_class = (
                visibility.classes_visible_to(user=user).filter(pk=data["training_class"]).first()
            )
            if training_class is None:
                raise NotFoundError("no such class among yours", field="training_class")
        assignment = assignment_create(
            drill=drill,
            mode=data["mode"],
            assigned_by=user,
            trainee=trainee,
            training_class=training_class,
            due_at=data.get("due_at"),
            max_sittings=data.get("max_sittings"),
            cooldown_hours=data.get("cooldown_hours"),
        )
        return Response(TeachAssignmentOutput(assignment).data, status=status.HTTP_201_CREATED)


def _mine(request: Request, assignment_id: int) -> Assignment:
    return assignment_sel.assignment_get_for_manager(assignment_id=assignment_id, user=request.user)


class TeachAssignmentDetailView(InstructorView):
    @extend_schema(responses={200: TeachAssignmentOutput, **errors(404)})
    def get(self, request: Request, assignment_id: int) -> Response:
        """One assignment you manage."""
        return Response(TeachAssignmentOutput(_mine(request, assignment_id)).data)


class TeachAssignmentReassignView(InstructorView):
    @extend_schema(
        request=ReassignInput,
        responses={200: TeachAssignmentOutput, **body_errors(404, 409)},
        description="A new sitting allowance and/or due date; what is left out stays.",
    )
    def post(self, request: Request, assignment_id: int) -> Response:
        assignment = _mine(request, assignment_id)
        body = ReassignInput(data=request.data)
        body.is_valid(raise_exception=True)
        changed = assignment_reassign(
            assignment=assignment, user=_user(request), **body.validated_data
        )
        return Response(TeachAssignmentOutput(changed).data)


class TeachAssignmentCancelView(InstructorView):
    @extend_schema(
        request=None,
        responses={200: TeachAssignmentOutput, **errors(404, 409)},
        description="Cancel: trainees no longer see it; its sittings stay on record.",
    )
    def post(self, request: Request, assignment_id: int) -> Response:
        cancelled = assignment_cancel(assignment=_mine(request, assignment_id), user=_user(request))
        return Response(TeachAssignmentOutput(cancelled).data)


class TeachAssignmentBoardView(InstructorView):
    @extend_schema(responses={200: BoardOutput, **errors(404)})
    def get(self, request: Request, assignment_id: int) -> Response:
        """Where each of the assignment's trainees stands, with their last activity."""
        board = assignment_sel.assignment_board(assignment=_mine(request, assignment_id))
        return Response(
            {
                "assignments": [a.pk for a in board.assignments],
                "rows": [
                    {
                        "trainee": row.trainee.pk,
                        "name": row.trainee.get_full_name() or row.trainee.get_username(),
                        "cells": [
                            {
                                "assignment": assignment.pk,
                                "status": cell.status,
                                "last_activity": cell.last_activity,
                            }
                            for assignment, cell in zip(board.assignments, row.cells, strict=True)
                            if cell is not None
                        ],
                    }
                    for row in board.rows
                ],
            }
        )
