"""Admin helpers both apps share, and the admin's user forms (usernames as core.usernames
compares them)."""

from typing import Any

from django.contrib import admin
from django.contrib.auth import admin as auth_admin
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from core.usernames import username_normal, username_taken


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shows a record; never adds, changes or deletes one."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# The admin's user forms compare usernames as every other door does (core.usernames).


class _UsernameIgnoringCase:
    """A user form's username in its normal form (NFKC), refused when another account has
    it ignoring case and width (Django's own check misses TINA in full-width letters, and
    its change form checks exact spelling only)."""

    instance: Any
    cleaned_data: dict[str, Any]

    def clean_username(self) -> str:
        username = username_normal(self.cleaned_data.get("username"))
        if username and username_taken(username, exclude_pk=self.instance.pk):
            raise ValidationError(
                "Another account already has this username: usernames are compared "
                "ignoring upper and lower case and letter width.",
                code="unique",
            )
        return username


class UserCreationForm(_UsernameIgnoringCase, auth_forms.AdminUserCreationForm):
    pass


class UserChangeForm(_UsernameIgnoringCase, auth_forms.UserChangeForm):
    pass


class UserAdmin(auth_admin.UserAdmin):
    form = UserChangeForm
    add_form = UserCreationForm


User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, UserAdmin)
