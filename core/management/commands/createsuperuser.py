"""Django's createsuperuser, with the one rule for usernames (core.usernames): a username
another account has in another case or width (``Admin``, or ``ADMIN`` in full-width
letters, for ``admin``) is refused with Django's own words, asked again when interactive,
instead of a traceback from the database's unique index on LOWER(username). A race lost
to another account made in between is the same clear error, and nothing is written."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.management.commands.createsuperuser import Command as DjangoCommand
from django.core.management.base import CommandError
from django.db import IntegrityError

from core.usernames import username_taken

TAKEN = "Error: That username is already taken (usernames are compared ignoring case)."


class Command(DjangoCommand):
    def _validate_username(self, username: Any, verbose_field_name: Any, database: Any) -> Any:
        # Django's private check (the one its prompts and --noinput call), not in its stubs.
        check = super()._validate_username  # type: ignore[misc]
        error = check(username, verbose_field_name, database)
        if error is None and username_taken(username):
            return TAKEN
        return error

    def handle(self, *args: Any, **options: Any) -> Any:
        try:
            return super().handle(*args, **options)
        except IntegrityError:
            raise CommandError(TAKEN.removeprefix("Error: ")) from None
