"""People: an administrator's work on accounts, from the Administration pages and the API.

Creating a person (their roles, no usable password, and an e-mail with a link to choose
one), changing their roles, closing and opening their account, clearing a wrong-password
lockout, and sending the invitation again. Administrators only, checked here for every
door; each change is a ledger entry in its transaction.

Separation of duties (docs/security.md): nobody takes away their own administrator role,
closes their own account or clears their own lockout (another administrator does it), and
the last active administrator keeps the role and the account: the department is never
left with nobody who can run it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet

from core.errors import ConflictError, ForbiddenError, ProductError, echo
from core.lockout import lockout_clear, lockout_state
from core.roles import Role, has_role, roles_of
from core.usernames import username_taken
from ledger.events import Event, Subject
from ledger.services.append import ledger_append
from teaching.services.classes.invitations import (
    Person,
    person_cleaned,
    person_problems,
    send_invitation,
)
from trainer.models import TrainingClass

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, User

ROLE_WORDS = ", ".join(role.label.lower() for role in Role)


def administrator_required(actor: AbstractBaseUser) -> None:
    if not has_role(actor, Role.ADMIN):
        raise ForbiddenError("only an administrator manages people and their roles")


def roles_parsed(roles: Iterable[str]) -> frozenset[Role]:
    """The roles named (their values: "trainee", "pit_boss", "compliance", "admin"); an
    error at the field for anything else, or for none."""
    chosen = set()
    for name in roles:
        try:
            chosen.add(Role(name))
        except ValueError:
            raise ProductError(
                f"{echo(name)} is not a role: the roles are {ROLE_WORDS}", field="roles"
            ) from None
    if not chosen:
        raise ProductError("choose at least one role", field="roles")
    return frozenset(chosen)


def role_values(roles: Iterable[Role]) -> list[str]:
    return sorted(role.value for role in roles)


def active_administrators() -> QuerySet[User]:
    """Accounts that can sign in and hold the administrator role (a superuser holds it
    whatever their groups, core.roles)."""
    users = get_user_model().objects.filter(is_active=True)
    return users.filter(
        pk__in=users.filter(Q(groups__name=Role.ADMIN.value) | Q(is_superuser=True)).values("pk")
    )


def _last_administrator_check(person: AbstractBaseUser, doing: str) -> None:
    """Refuse if ``person`` is the only active administrator left. The administrators'
    rows are locked first, so two administrators closing each other at once cannot both
    pass the check."""
    admins = list(active_administrators().select_for_update().values_list("pk", flat=True))
    if admins == [person.pk]:
        raise ConflictError(
            f"{echo(person.get_username())} is the last active administrator: {doing} would "
            "leave nobody to run the department; make someone else an administrator first",
            field="roles",
            code="last_administrator",
        )


def person_create(
    *,
    actor: AbstractBaseUser,
    username: str,
    email: str,
    roles: Iterable[str],
    link_base: str,
    first_name: str = "",
    last_name: str = "",
) -> User:
    """A new account with these roles and no usable password, and an e-mail with a link to
    choose one (valid SHOESCHOOL_PASSWORD_LINK_DAYS), sent when the transaction commits.
    An administrator also gets staff status (to read records in the Django admin)."""
    administrator_required(actor)
    chosen = roles_parsed(roles)
    person = person_cleaned(Person(username, email, first_name, last_name))
    for column, message in person_problems(person):
        raise ProductError(message.replace("the invitation", "the link"), field=column)
    taken = f"the username {echo(person.username)} is taken: choose another"
    if username_taken(person.username):
        raise ConflictError(taken, field="username")
    if get_user_model().objects.filter(email__iexact=person.email).exists():
        # Administrators see every account: saying so tells them nothing new.
        raise ConflictError(
            "another account already has this e-mail address: find it on the People page",
            field="email",
        )
    with transaction.atomic():
        try:
            with transaction.atomic():
                user: User = get_user_model().objects.create_user(
                    username=person.username,
                    email=person.email,
                    first_name=person.first_name,
                    last_name=person.last_name,
                    password=None,  # unusable until they choose one through the link
                    is_staff=Role.ADMIN in chosen,
                )
        except IntegrityError:
            raise ConflictError(taken, field="username") from None
        user.groups.set(Group.objects.filter(name__in=role_values(chosen)))
        ledger_append(
            event=Event.PERSON_CREATED,
            subject_type=Subject.USER,
            subject_id=user.pk,
            payload={"username": user.username, "email": user.email, "roles": role_values(chosen)},
            actor=actor,
        )
        transaction.on_commit(lambda: send_invitation(user_id=user.pk, link_base=link_base))
    return user


def _classes_taught(person: AbstractBaseUser) -> list[str]:
    return list(
        TrainingClass.objects.filter(instructors=person.pk)
        .order_by("name")
        .values_list("name", flat=True)
    )


def person_roles_set(
    *, actor: AbstractBaseUser, person: User, roles: Iterable[str]
) -> frozenset[Role]:
    """Give ``person`` exactly these roles. Refused: taking away one's own administrator
    role, the last active administrator's, and the pit boss role of someone who still
    teaches a class (choose that class's instructors first). Returns the roles they hold."""
    administrator_required(actor)
    chosen = roles_parsed(roles)
    before = roles_of(person)
    if Role.ADMIN in before and Role.ADMIN not in chosen and person.pk == actor.pk:
        raise ForbiddenError(
            "nobody takes away their own administrator role: another administrator does it"
        )
    with transaction.atomic():
        if Role.ADMIN in before and Role.ADMIN not in chosen and person.is_active:
            _last_administrator_check(person, "taking away their administrator role")
        if Role.PIT_BOSS in before and Role.PIT_BOSS not in chosen:
            taught = _classes_taught(person)
            if taught:
                raise ConflictError(
                    f"{echo(person.get_username())} still teaches {', '.join(taught)}: choose "
                    "other instructors for those classes first, then take the pit boss role "
                    "away",
                    field="roles",
                    code="teaches_classes",
                )
        if chosen == before:
            return before
        person.groups.set(Group.objects.filter(name__in=role_values(chosen)))
        person.is_staff = Role.ADMIN in chosen
        if Role.ADMIN not in chosen:
            person.is_superuser = False  # a superuser holds the role whatever their groups
        person.save(update_fields=["is_staff", "is_superuser"])
        ledger_append(
            event=Event.PERSON_ROLES_CHANGED,
            subject_type=Subject.USER,
            subject_id=person.pk,
            payload={
                "username": person.get_username(),
                "from": role_values(before),
                "to": role_values(chosen),
            },
            actor=actor,
        )
    person._shoeschool_roles = chosen  # type: ignore[attr-defined]
    return chosen


def _active_set(*, actor: AbstractBaseUser, person: User, active: bool) -> None:
    administrator_required(actor)
    if person.pk == actor.pk:
        raise ForbiddenError(
            "nobody closes or opens their own account: another administrator does it"
        )
    with transaction.atomic():
        locked = get_user_model().objects.select_for_update().get(pk=person.pk)
        if locked.is_active == active:
            state = "open" if active else "closed"
            raise ConflictError(
                f"{echo(person.get_username())}'s account is already {state}", field="person"
            )
        if not active and Role.ADMIN in roles_of(person):
            _last_administrator_check(person, "closing their account")
        locked.is_active = active
        locked.save(update_fields=["is_active"])
        ledger_append(
            event=Event.PERSON_REACTIVATED if active else Event.PERSON_DEACTIVATED,
            subject_type=Subject.USER,
            subject_id=person.pk,
            payload={"username": person.get_username()},
            actor=actor,
        )
    person.is_active = active


def person_deactivate(*, actor: AbstractBaseUser, person: User) -> None:
    """Close the account: it can no longer sign in (a session it has ends at its next
    request) and the API refuses it; its record, classes and history stay as they are."""
    _active_set(actor=actor, person=person, active=False)


def person_reactivate(*, actor: AbstractBaseUser, person: User) -> None:
    """Open a closed account again, with the password and roles it had."""
    _active_set(actor=actor, person=person, active=True)


def person_unlock(*, actor: AbstractBaseUser, person: User) -> int:
    """Clear the wrong passwords counted against ``person`` from every address and
    browser: they may sign in at once. Never one's own (another administrator decides
    whether guesses at an administrator's password are theirs). Returns how many wrong
    passwords were cleared."""
    administrator_required(actor)
    if person.pk == actor.pk:
        raise ForbiddenError("nobody unlocks their own account: another administrator does it")
    state = lockout_state(person.get_username())
    if state is None:
        raise ConflictError(
            f"{echo(person.get_username())} is not locked out: they can sign in",
            field="person",
            code="not_locked",
        )
    with transaction.atomic():
        lockout_clear(person.get_username())
        ledger_append(
            event=Event.PERSON_UNLOCKED,
            subject_type=Subject.USER,
            subject_id=person.pk,
            payload={"username": person.get_username(), "failures": state.failures},
            actor=actor,
        )
    return state.failures


def person_invitation_resend(*, actor: AbstractBaseUser, person: User, link_base: str) -> None:
    """A new link to choose a password for someone who never chose one (the first expired
    or was lost): Django's own reset form skips accounts without a usable password, so this
    is their way in. Any role; any class or none."""
    administrator_required(actor)
    name = echo(person.get_username())
    if person.has_usable_password():
        raise ConflictError(
            f"{name} has chosen a password already: they can reset it from the login page",
            field="person",
            code="has_password",
        )
    if not person.is_active:
        raise ConflictError(
            f"{name}'s account is closed: open it before sending the invitation again",
            field="person",
        )
    if not person.email:
        raise ConflictError(f"{name} has no e-mail address", field="person")
    with transaction.atomic():
        ledger_append(
            event=Event.PERSON_INVITATION_RESENT,
            subject_type=Subject.USER,
            subject_id=person.pk,
            payload={"username": person.get_username(), "email": person.email},
            actor=actor,
        )
        transaction.on_commit(lambda: send_invitation(user_id=person.pk, link_base=link_base))
