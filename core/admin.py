"""Admin helpers both apps share, and the admin's accounts (read-only)."""

from typing import Any

from django.contrib import admin
from django.contrib.auth import admin as auth_admin
from django.contrib.auth import get_user_model
from django.http import HttpRequest


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shows a record; never adds, changes or deletes one."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class UserAdmin(auth_admin.UserAdmin):
    """Accounts, to read. An account is added, given roles, closed, opened and unlocked on
    the Administration pages (teaching.services.people): their checks (never on oneself, the
    last administrator kept, usernames compared as core.usernames does) and their ledger
    entries would be skipped here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, UserAdmin)
