"""Signing in with Django's user model, the user's roles read with the user.

Every request reads its signed-in user from the session; every view then asks for the
user's roles (core.roles). Read apart, that is two queries on every request; read here in
the one query that loads the user (a row per group, through the join), it is one. Roles
are still read afresh on every request: a role taken away holds from the next request.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from core.roles import remember_roles


class RolesModelBackend(ModelBackend):
    """Django's ModelBackend (passwords, permissions) whose get_user reads the roles too."""

    def get_user(self, user_id: Any) -> Any:
        model = get_user_model()
        fields = [field.attname for field in model._meta.concrete_fields]
        manager = model._default_manager
        rows = list(manager.filter(pk=user_id).values_list(*fields, "groups__name"))
        if not rows:
            return None
        user = model.from_db(manager.db, fields, rows[0][:-1])
        remember_roles(user, {row[-1] for row in rows if row[-1] is not None})
        return user if self.user_can_authenticate(user) else None
