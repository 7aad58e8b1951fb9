"""Reads of signature authority: a person's rank and licence number in force, and the people
whose signature cards the pit shows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet

from audit.authority import Authority, Rank
from audit.models import SignerProfile
from core.roles import Role

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def signer_profile_of(*, person_id: int) -> SignerProfile | None:
    """The newest authority recorded for this person, or None."""
    return SignerProfile.objects.filter(person_id=person_id).order_by("-set_at", "-pk").first()


def authority_of(profile: SignerProfile | None) -> Authority:
    if profile is None:
        return Authority(rank=None, licence_number="")
    return Authority(rank=Rank(profile.rank), licence_number=profile.licence_number)


def signer_profile_history(*, person_id: int) -> list[SignerProfile]:
    return list(
        SignerProfile.objects.filter(person_id=person_id)
        .select_related("set_by")
        .order_by("-set_at", "-pk")
    )


def signers() -> QuerySet[User]:
    """The people who may sign something (pit bosses and administrators) or who have an
    authority on file, by last name."""
    return (
        get_user_model()
        .objects.filter(
            Q(groups__name__in=[Role.PIT_BOSS.value, Role.ADMIN.value])
            | Q(is_superuser=True)
            | Q(signer_profiles__isnull=False)
        )
        .distinct()
        .order_by("last_name", "first_name", "pk")
    )


def signer_profiles_in_force(*, person_ids: list[int]) -> dict[int, SignerProfile]:
    """Each person's newest authority, in one query."""
    found: dict[int, SignerProfile] = {}
    for profile in SignerProfile.objects.filter(person_id__in=person_ids).order_by(
        "person_id", "-set_at", "-pk"
    ):
        found.setdefault(profile.person_id, profile)
    return found
