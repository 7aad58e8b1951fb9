"""House rules in the API, for administrators (issue #24): the tables and their versions; a
new version of a table's rules from a date (previewed with `"preview": true`, which saves
nothing); a new table from a copy of one. The same service and refusals as /house-rules/;
a rule at fault is named as `parameters.<rule>`, the message in words."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import ProductError
from core.roles import Role, has_role
from trainer.api.fields import TextField
from trainer.api.serializers import ErrorOutput, StrictSerializer
from trainer.models import RuleProfileVersion
from trainer.selectors import house_rules as selectors
from trainer.services import house_rules as services


class IsAdministrator(BasePermission):
    message = "only administrators change the house rules"

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and has_role(request.user, Role.ADMIN))


_ERRORS = {
    400: OpenApiResponse(
        ErrorOutput, description="Bad input: `field` names it (`parameters.<rule>` for a rule)."
    ),
    403: OpenApiResponse(ErrorOutput, description="Not signed in, or not an administrator."),
    404: OpenApiResponse(ErrorOutput, description="No such table."),
    409: OpenApiResponse(
        ErrorOutput,
        description="The short name or title is taken, or a change is already scheduled "
        "from a later day than the one asked.",
    ),
    413: OpenApiResponse(ErrorOutput, description="The body is over the upload limit."),
    415: OpenApiResponse(ErrorOutput, description="The body is not application/json."),
    429: OpenApiResponse(
        ErrorOutput,
        description="Too many wrong passwords: signing in is paused for this account or "
        "address; the Retry-After header says for how many seconds.",
    ),
}


def _errors(*codes: int) -> dict[int | str, Any]:
    return {code: _ERRORS[code] for code in (403, 429, *codes)}


def _user(request: Request) -> AbstractBaseUser:
    user: AbstractBaseUser = request.user  # type: ignore[assignment]
    return user


def _at_parameters(error: ProductError, *, game: str) -> ProductError:
    """A rule's field as the body names it: parameters.<rule> (a rule of the table's game)."""
    if error.field in selectors.rule_of(game):
        error.field = f"parameters.{error.field}"
    return error


class ChangeOutput(serializers.Serializer[Any]):
    rule = serializers.CharField(source="label", help_text="The rule, in words.")
    before = serializers.CharField()
    after = serializers.CharField()


class VersionOutput(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    effective_from = serializers.DateTimeField(help_text="From when these are the table's rules.")
    status = serializers.CharField(help_text="in force, scheduled or earlier.")
    notes = serializers.CharField()
    rounds = serializers.IntegerField(help_text="Rounds dealt under this version.")
    drills = serializers.IntegerField(help_text="Drills made under this version.")
    scenarios = serializers.IntegerField(help_text="Scenarios filed under this version.")
    parameters = serializers.DictField(help_text="Every rule, as docs/scenario-format.md.")
    placard = serializers.CharField()
    house_rules = serializers.ListField(child=serializers.CharField())
    changes = ChangeOutput(many=True, help_text="What changed from the version before.")


class TableOutput(serializers.Serializer[Any]):
    name = serializers.CharField(help_text="The table's short name (fixed).")
    title = serializers.CharField()
    versions = VersionOutput(many=True, help_text="Newest first.")


class PreviewOutput(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    effective_from = serializers.DateTimeField()
    parameters = serializers.DictField()
    placard = serializers.CharField()
    house_rules = serializers.ListField(child=serializers.CharField())
    changes = ChangeOutput(many=True, help_text="What changes against the newest version.")


class VersionInput(StrictSerializer):
    parameters = serializers.DictField(
        help_text="The rules that change (or every rule), by their names in "
        'docs/scenario-format.md: e.g. {"dealer_hits_soft_17": false}.'
    )
    effective_on = serializers.DateField(
        help_text="The day they take effect, in the house's time zone; today is at once."
    )
    notes = TextField(max_length=services.NOTES_MAX, help_text="What changes and why.")
    preview = serializers.BooleanField(
        required=False, default=False, help_text="Judge and show, save nothing."
    )
    based_on = serializers.IntegerField(
        required=False,
        help_text="The version your rules start from: refused (409 rules_changed) if a "
        "newer one was recorded since, rather than undoing it.",
    )


class CopyInput(StrictSerializer):
    name = TextField(max_length=services.NAME_MAX, help_text="The new table's short name.")
    title = TextField(max_length=services.TITLE_MAX, help_text="Its title, as the pit says.")
    parameters = serializers.DictField(
        required=False, help_text="Rules that differ from the table copied."
    )
    notes = TextField(max_length=services.NOTES_MAX, required=False, allow_blank=True)


def _version(row: selectors.VersionRow) -> dict[str, Any]:
    v = row.version
    return {
        "version": v.version,
        "effective_from": v.effective_from,
        "status": row.status,
        "notes": v.notes,
        "rounds": row.rounds,
        "drills": row.drills,
        "scenarios": row.scenarios,
        "parameters": v.parameters,
        "placard": v.placard,
        "house_rules": v.house_rules,
        "changes": row.changes,
    }


def _table(row: selectors.TableRow) -> dict[str, Any]:
    return TableOutput(
        {
            "name": row.profile.name,
            "title": row.title,
            "versions": [_version(v) for v in row.versions],
        }
    ).data


class AdministratorView(APIView):
    permission_classes = (IsAuthenticated, IsAdministrator)


class HouseRulesListView(AdministratorView):
    @extend_schema(responses={200: TableOutput(many=True), **_errors()})
    def get(self, request: Request) -> Response:
        """Every table, with its versions (newest first)."""
        return Response([_table(row) for row in selectors.house_rule_tables()])


class HouseRuleDetailView(AdministratorView):
    @extend_schema(responses={200: TableOutput, **_errors(404)})
    def get(self, request: Request, name: str) -> Response:
        """One table, with its versions (newest first)."""
        return Response(_table(selectors.house_rule_table(name=name)))


class HouseRuleVersionsView(AdministratorView):
    @extend_schema(
        request=VersionInput,
        responses={
            201: VersionOutput,
            200: OpenApiResponse(PreviewOutput, description="A preview: nothing saved."),
            **_errors(400, 404, 409, 413, 415),
        },
        examples=[
            OpenApiExample(
                "Stand on soft 17 from the first of the month",
                value={
                    "parameters": {"dealer_hits_soft_17": False},
                    "effective_on": "2026-12-01",
                    "notes": "The house stands on soft 17",
                },
            )
        ],
    )
    def post(self, request: Request, name: str) -> Response:
        """A new version of the table's rules, from a day; the earlier versions stay, with
        every record made under them."""
        profile = selectors.profile_get(name=name)
        body = VersionInput(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        before = profile.newest_version
        try:
            version = services.house_rules_change(
                actor=_user(request),
                profile=profile,
                parameters=data["parameters"],
                effective_on=data["effective_on"],
                notes=data["notes"],
                dry_run=data["preview"],
                based_on=data.get("based_on"),
            )
        except ProductError as error:
            raise _at_parameters(error, game=profile.game) from None
        changes = selectors.rules_changes(
            before.parameters if before else None,
            version.parameters,
            game=version.profile.game,
        )
        out = {
            "version": version.version,
            "effective_from": version.effective_from,
            "parameters": version.parameters,
            "placard": version.placard,
            "house_rules": version.house_rules,
            "changes": changes,
        }
        if data["preview"]:
            return Response(PreviewOutput(out).data)
        row = selectors.VersionRow(version, _status(version), changes=changes)
        return Response(VersionOutput(_version(row)).data, status=status.HTTP_201_CREATED)


def _status(version: RuleProfileVersion) -> str:
    current = version.profile.current_version
    if current is not None and current.pk == version.pk:
        return "in force"
    return "scheduled"


class HouseRuleCopyView(AdministratorView):
    @extend_schema(
        request=CopyInput,
        responses={201: TableOutput, **_errors(400, 404, 409, 413, 415)},
        examples=[
            OpenApiExample(
                "A high-limit shoe",
                value={
                    "name": "high-limit-shoe",
                    "title": "High limit shoe",
                    "parameters": {"min_bet": "100", "max_bet": "5000"},
                },
            )
        ],
    )
    def post(self, request: Request, name: str) -> Response:
        """A new table with this table's rules in force (and `parameters` on top), in
        force at once as its version 1; its short name is fixed from then on."""
        source = selectors.profile_get(name=name)
        body = CopyInput(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        try:
            table = services.table_copy_create(
                actor=_user(request),
                source=source,
                name=data["name"],
                title=data["title"],
                parameters=data.get("parameters") or {},
                notes=data.get("notes", ""),
            )
        except ProductError as error:
            raise _at_parameters(error, game=source.game) from None
        row = selectors.house_rule_table(name=table.name)
        return Response(_table(row), status=status.HTTP_201_CREATED)
