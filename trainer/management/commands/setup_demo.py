"""Create the demo accounts of the development configuration and print how to log in."""

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from trainer.roles import Role

# Public on purpose: these accounts exist only in the development configuration.
DEMO_PASSWORD = "shoe-school-demo"  # noqa: S105
DEMO_ACCOUNTS = [
    ("trainee", "Terry", "Trainee", Role.TRAINEE),
    ("pitboss", "Pat", "Boss", Role.PIT_BOSS),
    ("compliance", "Casey", "Compliance", Role.COMPLIANCE),
    ("admin", "Ada", "Admin", Role.ADMIN),
]


class Command(BaseCommand):
    help = "Create the demo trainee, pit boss, compliance officer and admin (development only)."

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.ENVIRONMENT != "development":
            raise CommandError(
                f"demo accounts are created only in development, not in {settings.ENVIRONMENT}"
            )
        user_model = get_user_model()
        with transaction.atomic():
            for username, first, last, role in DEMO_ACCOUNTS:
                user, created = user_model.objects.get_or_create(
                    username=username, defaults={"first_name": first, "last_name": last}
                )
                if created:
                    user.set_password(DEMO_PASSWORD)
                user.is_staff = role is Role.ADMIN
                user.is_superuser = role is Role.ADMIN
                user.save()
                user.groups.add(Group.objects.get(name=role.value))
        self.stdout.write("Demo accounts (development only), all with the password")
        self.stdout.write(f"  {DEMO_PASSWORD}")
        for username, _first, _last, role in DEMO_ACCOUNTS:
            self.stdout.write(f"  {username:<12} {role.label}")
