"""Administration in the API (issue #24): people under /api/admin/people/ and a class's
instructors under /api/classes/<id>/instructors/. Administrators only (403 for anyone
else, and the services refuse them again); the same services and refusals as the pages
under /administration/."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import NotFoundError
from core.links import link_validity_words
from core.roles import Role, has_role
from core.usernames import users_with_username
from teaching.api.class_requests import ClassRefOutput
from teaching.api.classes import ClassDetailOutput, _detail, _user, body_errors, errors
from teaching.selectors import classes as class_selectors
from teaching.selectors import people as selectors
from teaching.services import classes as class_services
from teaching.services import people as services
from trainer.api.fields import TextField
from trainer.api.pagination import StrictPageNumberPagination
from trainer.api.serializers import StrictSerializer

ROLE_VALUES = [role.value for role in Role]


class IsAdministrator(BasePermission):
    message = "only administrators manage people and a class's instructors"

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and has_role(request.user, Role.ADMIN))


class AdministratorView(APIView):
    permission_classes = (IsAuthenticated, IsAdministrator)


def _link_base(request: Request) -> str:
    return request.build_absolute_uri("/").rstrip("/")


# Bodies.


class RoleListField(serializers.ListField):
    child = serializers.ChoiceField(choices=ROLE_VALUES)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            allow_empty=False,
            max_length=len(ROLE_VALUES),
            help_text="The roles, each one of: " + ", ".join(ROLE_VALUES) + ".",
            **kwargs,
        )


class PersonInput(StrictSerializer):
    username = TextField(max_length=150)
    email = TextField(max_length=254, help_text="The link to choose a password goes here.")
    first_name = TextField(max_length=150, required=False, allow_blank=True)
    last_name = TextField(max_length=150, required=False, allow_blank=True)
    roles = RoleListField()


class RolesInput(StrictSerializer):
    roles = RoleListField()


class InstructorInput(StrictSerializer):
    username = TextField(max_length=150, help_text="A pit boss's username.")


class AccountOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="user.pk")
    username = serializers.CharField(source="user.username")
    first_name = serializers.CharField(source="user.first_name")
    last_name = serializers.CharField(source="user.last_name")
    email = serializers.CharField(source="user.email")
    roles = serializers.SerializerMethodField()
    status = serializers.ChoiceField(
        choices=list(selectors.STATUSES),
        help_text="active (can sign in), invited (no password chosen yet), locked (too many "
        "wrong passwords), closed (cannot sign in).",
    )
    is_active = serializers.BooleanField(source="user.is_active")
    locked_until = serializers.DateTimeField(
        allow_null=True, help_text="When a lockout lifts by itself; null if not locked."
    )
    teaches = ClassRefOutput(source="taught", many=True)
    attends = ClassRefOutput(source="attended", many=True)

    def get_roles(self, row: selectors.PersonRow) -> list[str]:
        return [role.value for role in row.roles]


def _person(request: Request, person_id: int) -> selectors.PersonRow:
    return selectors.person_get(user=request.user, person_id=person_id)


def _out(request: Request, person_id: int) -> dict[str, Any]:
    return AccountOutput(_person(request, person_id)).data


ADMIN_ERRORS = {
    403: OpenApiResponse(
        description="Not an administrator; or acting on oneself (one's own administrator "
        "role, closing or unlocking one's own account)."
    ),
    409: OpenApiResponse(
        description="Already so, or refused by a rule: `last_administrator` (the last "
        "active administrator keeps the role and the account), `teaches_classes` (choose "
        "those classes' instructors first), `not_locked`, `has_password`; the username or "
        "address is taken."
    ),
}


# Views.


class PeopleQuery(StrictSerializer):
    """The list's filters, strict: a role or status outside the choices, or an unknown
    parameter, is a 400 naming it."""

    role = serializers.ChoiceField(
        choices=ROLE_VALUES,
        required=False,
        error_messages={"invalid_choice": "must be one of " + ", ".join(ROLE_VALUES)},
    )
    status = serializers.ChoiceField(
        choices=list(selectors.STATUSES),
        required=False,
        error_messages={"invalid_choice": "must be one of " + ", ".join(selectors.STATUSES)},
    )
    q = TextField(
        max_length=100, required=False, help_text="A search in names, username and e-mail."
    )
    page = serializers.IntegerField(
        required=False, min_value=1, help_text="A page number from 1 to the last page."
    )


class PeopleView(AdministratorView):
    pagination_class = StrictPageNumberPagination

    @extend_schema(
        parameters=[PeopleQuery],
        responses={200: AccountOutput(many=True), **errors(400)},
    )
    def get(self, request: Request) -> Response:
        """Every account: roles, whether it can sign in, is locked out or invited, its
        classes. Filtered by role, status and a search."""
        query = PeopleQuery(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        given = query.validated_data
        rows = selectors.people_list(
            user=request.user,
            role=given.get("role", ""),
            status=given.get("status", ""),
            search=given.get("q", ""),
        )
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response(AccountOutput(page, many=True).data)

    @extend_schema(
        request=PersonInput,
        responses={201: AccountOutput, **body_errors(), **ADMIN_ERRORS},
        examples=[
            OpenApiExample(
                "A new pit boss",
                value={
                    "username": "paula",
                    "email": "paula@casino.example",
                    "first_name": "Paula",
                    "roles": ["pit_boss"],
                },
            )
        ],
    )
    def post(self, request: Request) -> Response:
        """Make an account with these roles and e-mail a link to choose a password (it
        works for SHOESCHOOL_PASSWORD_LINK_DAYS days, 7 by default)."""
        body = PersonInput(data=request.data)
        body.is_valid(raise_exception=True)
        made = services.person_create(
            actor=_user(request), link_base=_link_base(request), **body.validated_data
        )
        out = _out(request, made.pk)
        return Response({**out, "link_valid_for": link_validity_words()}, status=201)


class PersonView(AdministratorView):
    @extend_schema(responses={200: AccountOutput, **errors(404)})
    def get(self, request: Request, person_id: int) -> Response:
        """One account."""
        return Response(_out(request, person_id))


class PersonRolesView(AdministratorView):
    @extend_schema(
        request=RolesInput,
        responses={200: AccountOutput, **body_errors(404), **ADMIN_ERRORS},
        examples=[OpenApiExample("Roles", value={"roles": ["trainee", "pit_boss"]})],
    )
    def put(self, request: Request, person_id: int) -> Response:
        """Give the person exactly these roles."""
        row = _person(request, person_id)
        body = RolesInput(data=request.data)
        body.is_valid(raise_exception=True)
        services.person_roles_set(
            actor=_user(request), person=row.user, roles=body.validated_data["roles"]
        )
        return Response(_out(request, person_id))


class PersonActionView(AdministratorView):
    """One of the person's buttons: close, open, unlock, invitation."""

    action = "close"

    @extend_schema(request=None, responses={200: AccountOutput, **errors(404), **ADMIN_ERRORS})
    def post(self, request: Request, person_id: int) -> Response:
        """close: the account can no longer sign in; open: it can again; unlock: clear
        the wrong passwords counted against it; invitation: e-mail a new link to choose a
        password (only to someone who never chose one)."""
        row = _person(request, person_id)
        actor = _user(request)
        if self.action == "close":
            services.person_deactivate(actor=actor, person=row.user)
        elif self.action == "open":
            services.person_reactivate(actor=actor, person=row.user)
        elif self.action == "unlock":
            services.person_unlock(actor=actor, person=row.user)
        else:
            services.person_invitation_resend(
                actor=actor, person=row.user, link_base=_link_base(request)
            )
        return Response(_out(request, person_id))


class ClassInstructorsView(AdministratorView):
    @extend_schema(
        request=InstructorInput,
        responses={201: ClassDetailOutput, **body_errors(404, 409), **ADMIN_ERRORS},
        examples=[OpenApiExample("Add", value={"username": "pitboss2"})],
    )
    def post(self, request: Request, class_id: int) -> Response:
        """Make a pit boss an instructor of the class (a class may have several)."""
        training_class = class_selectors.class_get_for_manager(class_id=class_id, user=request.user)
        body = InstructorInput(data=request.data)
        body.is_valid(raise_exception=True)
        person = users_with_username(
            body.validated_data["username"], selectors.pit_bosses(user=request.user)
        ).first()
        if person is None:
            raise NotFoundError("no active pit boss has this username", field="username")
        class_services.class_instructor_add(
            actor=_user(request), training_class=training_class, instructor=person
        )
        return Response(_detail(training_class), status=status.HTTP_201_CREATED)


class ClassInstructorView(AdministratorView):
    @extend_schema(
        request=None, responses={204: OpenApiResponse(description="Removed."), **errors(404)}
    )
    def delete(self, request: Request, class_id: int, instructor_id: int) -> Response:
        """Stop a pit boss teaching the class."""
        training_class = class_selectors.class_get_for_manager(class_id=class_id, user=request.user)
        person = training_class.instructors.filter(pk=instructor_id).first()
        if person is None:
            raise NotFoundError("no such instructor of this class", field="instructor")
        class_services.class_instructor_remove(
            actor=_user(request), training_class=training_class, instructor=person
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
