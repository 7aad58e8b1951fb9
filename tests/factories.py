"""factory_boy factories shared by the tests."""

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from trainer.models import RuleProfileVersion

PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    first_name = factory.Faker("first_name")
    last_name = factory.Faker("last_name")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def roles(self, create, extracted, **kwargs):
        if create and extracted:
            self.groups.add(*Group.objects.filter(name__in=extracted))
        if create:
            self.save()


def profile_version(name: str = "casino-shoe") -> RuleProfileVersion:
    """The newest recorded version of a built-in profile.

    The data migration loads them, and tests/conftest.py puts them back after a
    transactional test's flush, so every database test finds them.
    """
    return RuleProfileVersion.objects.filter(profile__name=name).latest("version")


def casino_migration() -> str:
    """The module of the migration that ships Scarne's Casino's table (by name, whatever
    number it was given)."""
    from pathlib import Path

    import trainer.migrations

    (path,) = Path(trainer.migrations.__file__).parent.glob("*_scarne_casino_profile.py")
    return f"trainer.migrations.{path.stem}"
