from typing import Any

from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from core.roles import Role, has_role


class IsTrainee(BasePermission):
    """The trainee endpoints: other roles get 403 (they have pages of their own)."""

    message = "only trainees may use this endpoint"

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and has_role(request.user, Role.TRAINEE))


class IsManager(BasePermission):
    """The drill and scenario endpoints: pit bosses and administrators only (a trainee's
    practice drills reach them through their own endpoints, exams never)."""

    message = "only pit bosses and administrators may use this endpoint"

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and has_role(request.user, Role.PIT_BOSS, Role.ADMIN))
