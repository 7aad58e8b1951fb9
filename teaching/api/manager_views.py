"""The drill and scenario endpoints, for pit bosses and administrators: thin views over
the drill and scenario services. Trainees are refused (403): their practice drills reach
them through their assignments, and sealed exams and answer keys never do."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import ProductError, echo
from teaching.api import manager_serializers as m
from teaching.selectors import drills as sel
from trainer.api.filters import StrictFilterSet, choice_filter
from trainer.api.permissions import IsManager
from trainer.api.serializers import ErrorOutput
from trainer.api.views import body_errors, errors
from trainer.models import Drill, DrillKind, DrillPurpose, RuleProfile, Scenario
from trainer.services.drills import drill_create, drill_retire
from trainer.services.scenario_authoring import scenario_create, scenario_revise

_FORBIDDEN = {
    403: OpenApiResponse(ErrorOutput, description="Not signed in, or not a pit boss or admin.")
}


class ManagerView(APIView):
    permission_classes = (IsAuthenticated, IsManager)


# "true" or "false" only: a boolean filter would take "null" (and so match everything).
ACTIVE_CHOICES = (("true", "Active"), ("false", "Retired or superseded"))


def _by_active(queryset: QuerySet[Any], name: str, value: str) -> QuerySet[Any]:
    return queryset.filter(is_active=value == "true")


class DrillFilter(StrictFilterSet):
    kind = choice_filter(DrillKind.choices)
    purpose = choice_filter(DrillPurpose.choices)
    active = choice_filter(ACTIVE_CHOICES, method=_by_active)

    class Meta:
        model = Drill
        fields = ("kind", "purpose", "active")


class DrillListView(ManagerView, generics.ListAPIView[Drill]):
    """GET: every drill (active first). POST: make a drill from library scenarios or a
    generator recipe."""

    serializer_class = m.DrillManagerOutput
    filterset_class = DrillFilter

    def get_queryset(self) -> QuerySet[Drill]:
        # Not another class's personal drill (security.md, *Class boundaries*).
        return sel.drills_visible_to(user=self.request.user)

    @extend_schema(responses={200: m.DrillManagerOutput(many=True), **errors(400), **_FORBIDDEN})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        request=m.DrillCreateInput,
        responses={201: m.DrillManagerOutput, **body_errors(404, 409), **_FORBIDDEN},
        examples=[
            OpenApiExample(
                "From the library",
                value={"title": "Naturals", "kind": "fixed", "scenarios": [3, 1, 2]},
            ),
            OpenApiExample(
                "Generated",
                value={
                    "title": "Splits and doubles",
                    "kind": "generated",
                    "profile": "casino-shoe",
                    "skills": ["split", "double"],
                    "count": 20,
                    "min_stake": "10",
                    "max_stake": "100",
                },
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        body = m.DrillCreateInput(data=request.data)
        body.is_valid(raise_exception=True)
        data = dict(body.validated_data)
        version = None
        if data.pop("profile", None) is not None:
            name = body.validated_data["profile"]
            profile = RuleProfile.objects.filter(name=name).first()
            version = profile.current_version if profile is not None else None
            if version is None:
                raise ProductError(f"no rule profile {echo(name)}", field="profile")
        ids = data.pop("scenarios")
        chosen = sel.scenarios_by_ids(ids)
        if len(chosen) != len(ids):
            raise ProductError(
                "every scenario must be an active scenario's id (a superseded revision is "
                "replaced by its newest)",
                field="scenarios",
            )
        if data.get("count") is None:
            data["count"] = len(chosen) if data["kind"] == DrillKind.FIXED else 10
        drill = drill_create(
            **data,
            scenarios=chosen,
            profile_version=version,
            user=request.user,  # type: ignore[arg-type]
        )
        found = sel.drill_get_for_manager(drill_id=drill.pk)
        return Response(m.DrillManagerOutput(found).data, status=status.HTTP_201_CREATED)


class DrillDetailView(ManagerView):
    @extend_schema(responses={200: m.DrillManagerOutput, **errors(404), **_FORBIDDEN})
    def get(self, request: Request, drill_id: int) -> Response:
        """One drill: its recipe or its scenarios in order, and how many assignments use it."""
        drill = sel.drill_get_for_viewer(drill_id=drill_id, user=request.user)
        return Response(m.DrillManagerOutput(drill).data)


class DrillRetireView(ManagerView):
    @extend_schema(
        request=m.RetireInput,
        responses={200: m.DrillManagerOutput, **body_errors(404, 409), **_FORBIDDEN},
    )
    def post(self, request: Request, drill_id: int) -> Response:
        """Retire a drill: it can no longer be assigned or started; its record stays."""
        body = m.RetireInput(data=request.data)
        body.is_valid(raise_exception=True)
        drill = sel.drill_get_for_viewer(drill_id=drill_id, user=request.user)
        drill_retire(drill=drill, user=request.user, reason=body.validated_data["reason"])  # type: ignore[arg-type]
        return Response(m.DrillManagerOutput(sel.drill_get_for_manager(drill_id=drill_id)).data)


class ScenarioFilter(StrictFilterSet):
    profile = django_filters.CharFilter(field_name="profile_version__profile__name")
    active = choice_filter(ACTIVE_CHOICES, method=_by_active)

    class Meta:
        model = Scenario
        fields = ("profile", "active")


class ScenarioListView(ManagerView, generics.ListAPIView[Scenario]):
    """GET: the library, every revision (filter `active=true` for the current ones).
    POST: author a new scenario."""

    serializer_class = m.ScenarioOutput
    filterset_class = ScenarioFilter

    def get_queryset(self) -> QuerySet[Scenario]:
        return sel.scenario_queryset_for_managers()

    @extend_schema(responses={200: m.ScenarioOutput(many=True), **errors(400), **_FORBIDDEN})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        request=m.ScenarioInput,
        responses={201: m.ScenarioOutput, **body_errors(409), **_FORBIDDEN},
        description="The engine validates the round; its error names the document's field "
        "(e.g. `boxes[0].actions[1]`).",
    )
    def post(self, request: Request) -> Response:
        body = m.ScenarioInput(data=request.data)
        body.is_valid(raise_exception=True)
        scenario = scenario_create(
            document=body.validated_data["document"],
            difficulty=body.validated_data["difficulty"],
            user=request.user,  # type: ignore[arg-type]
        )
        return Response(m.ScenarioOutput(scenario).data, status=status.HTTP_201_CREATED)


class ScenarioDetailView(ManagerView):
    @extend_schema(responses={200: m.ScenarioOutput, **errors(404), **_FORBIDDEN})
    def get(self, request: Request, scenario_id: int) -> Response:
        """One scenario revision, with its document."""
        return Response(
            m.ScenarioOutput(sel.scenario_get_for_manager(scenario_id=scenario_id)).data
        )


class ScenarioReviseView(ManagerView):
    @extend_schema(
        request=m.ScenarioReviseInput,
        responses={201: m.ScenarioOutput, **body_errors(404, 409), **_FORBIDDEN},
    )
    def post(self, request: Request, scenario_id: int) -> Response:
        """A new revision superseding this one (which must be the latest); never an edit."""
        body = m.ScenarioReviseInput(data=request.data)
        body.is_valid(raise_exception=True)
        scenario = sel.scenario_get_for_manager(scenario_id=scenario_id)
        revised = scenario_revise(
            scenario=scenario,
            document=body.validated_data["document"],
            difficulty=body.validated_data.get("difficulty"),
            user=request.user,  # type: ignore[arg-type]
        )
        return Response(m.ScenarioOutput(revised).data, status=status.HTTP_201_CREATED)
