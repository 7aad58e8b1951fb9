"""factory_boy factories shared by the tests."""

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from audit.authority import Rank
from ledger.events import Event, Subject
from ledger.services.append import ledger_append
from ledger.services.vouch import row_vouches
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

    @factory.post_generation
    def signer(self, create, extracted, **kwargs):
        """A pit boss or an administrator signs as a pit manager (an administrator) with a
        licence number unless told: ``signer=Rank.PIT_BOSS`` another rank, ``signer=False``
        no authority on file; ``signer__licence=""`` no licence number."""
        if not create or extracted is False:
            return
        roles = set(self.groups.values_list("name", flat=True))
        if extracted is None:
            if self.is_superuser or "admin" in roles:
                extracted = Rank.ADMINISTRATOR
            elif "pit_boss" in roles:
                extracted = Rank.PIT_MANAGER
            else:
                return
        signer_authority(self, rank=extracted, **kwargs)


def signer_authority(user, *, rank: Rank, licence: str | None = None, set_by=None):
    """Record ``user``'s rank and licence number (a row the ledger vouches for), without
    needing an administrator: vouched as the backfill vouches for rows older than vouching
    (a `vouched.backfilled` entry), so that the tests counting the entries a service wrote
    (every one but the backfill's) do not count the factory's."""
    from audit.models import SignerProfile

    profile = SignerProfile.objects.create(
        person=user,
        rank=Rank(rank).value,
        licence_number=f"L-{user.pk:05d}" if licence is None else licence,
        set_by=set_by or user,
        set_at=timezone.now(),
    )
    ledger_append(
        event=Event.VOUCHED_BACKFILLED,
        subject_type=Subject.USER,
        subject_id=user.pk,
        payload={
            "note": "a test's signer authority",
            "vouches": row_vouches(SignerProfile, [profile.pk]),
        },
    )
    return profile


def entries_written():
    """The ledger's entries but the factories' own (a signer's authority is vouched for
    as a backfill): what the code under test wrote."""
    from ledger.models import LedgerEntry

    return LedgerEntry.objects.exclude(event=Event.VOUCHED_BACKFILLED)


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
