"""Inviting a trainee: a new account with the trainee role and no usable password, and an
e-mail with a link to choose one (Django's password-reset token), sent on commit.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.tokens import default_token_generator
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from core.errors import ConflictError, NotFoundError, ProductError, echo
from core.links import link_validity_words
from core.roles import Role, roles_of
from core.usernames import username_normal, username_taken
from ledger.events import Event, Subject
from ledger.services.append import ledger_append
from teaching.services.classes.membership import class_trainee_add, may_manage, may_manage_class
from trainer.models import TrainingClass

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, User

PERSON_NAME_MAX = 150

security_log = logging.getLogger("shoeschool.security")


@dataclass(frozen=True)
class Person:
    """A new trainee as typed into a form or a roster row, not yet checked."""

    username: str
    email: str
    first_name: str = ""
    last_name: str = ""


def person_problems(person: Person) -> list[tuple[str, str]]:
    """(column, message) for each thing wrong with a new trainee's details, format only."""
    problems: list[tuple[str, str]] = []
    username = person.username
    if not username:
        problems.append(("username", "a username is required"))
    elif len(username) > 150:
        problems.append(("username", "a username is at most 150 characters"))
    else:
        try:
            UnicodeUsernameValidator()(username)
        except ValidationError:
            problems.append(
                (
                    "username",
                    f"{echo(username)} is not a username: letters, digits and @ . + - _ only",
                )
            )
    if not person.email:
        problems.append(("email", "an e-mail address is required to send the invitation"))
    else:
        try:
            validate_email(person.email)
        except ValidationError:
            problems.append(("email", f"{echo(person.email)} is not an e-mail address"))
    for column, value in (("first_name", person.first_name), ("last_name", person.last_name)):
        if len(value) > PERSON_NAME_MAX:
            problems.append((column, f"{column} is at most {PERSON_NAME_MAX} characters"))
    return problems


def person_cleaned(person: Person) -> Person:
    return Person(
        username=username_normal(person.username),
        email=(person.email or "").strip(),
        first_name=(person.first_name or "").strip(),
        last_name=(person.last_name or "").strip(),
    )


# The one answer for an address an account already has, whatever that account is (staff
# or trainee, any role, any class): it says neither whose nor which role, and the address
# is not repeated (docs/security.md, *Roster and invitation answers*).
ADDRESS_NOT_USABLE = (
    "no invitation can go to this address: check it with the trainee; someone who already "
    "has an account is added by their username"
)


def username_taken_message(username: str) -> str:
    """The answer for a username an account already has, whatever that account is."""
    return f"the username {echo(username)} is taken: choose another for a new trainee"


def _taken_problems(person: Person) -> list[tuple[str, str]]:
    users = get_user_model().objects
    problems = []
    if username_taken(person.username):
        problems.append(("username", username_taken_message(person.username)))
    if users.filter(email__iexact=person.email).exists():
        security_log.warning("invitation refused: an address already in use was given")
        problems.append(("email", ADDRESS_NOT_USABLE))
    return problems


def trainee_invite(
    *,
    actor: AbstractBaseUser,
    username: str,
    email: str,
    link_base: str,
    first_name: str = "",
    last_name: str = "",
    training_class: TrainingClass | None = None,
) -> User:
    """A new trainee account (the trainee role, no usable password), put on
    ``training_class`` if given, and an e-mail with a link to choose a password: Django's
    password-reset token, sent when the transaction commits (so a refused roster sends
    nothing). ``link_base`` is the site's address as the inviter reached it
    ("https://host")."""
    if training_class is not None:
        may_manage_class(actor, training_class)
    else:
        may_manage(actor)
    person = person_cleaned(Person(username, email, first_name, last_name))
    for column, message in person_problems(person):
        raise ProductError(message, field=column)
    for column, message in _taken_problems(person):
        raise ConflictError(message, field=column)
    with transaction.atomic():
        trainee = invite_person(actor=actor, person=person, link_base=link_base)
        if training_class is not None:
            class_trainee_add(actor=actor, training_class=training_class, trainee=trainee)
    return trainee


def invite_person(*, actor: AbstractBaseUser, person: Person, link_base: str) -> User:
    """The account, its role and its ledger entry, inside the caller's transaction. An
    invitation that lost a race to another with the same username in another spelling
    (both checked before either was written) meets the database's unique index on
    LOWER(username): a 409, and the caller's whole transaction is rolled back."""
    try:
        with transaction.atomic():
            user: User = get_user_model().objects.create_user(
                username=person.username,
                email=person.email,
                first_name=person.first_name,
                last_name=person.last_name,
                password=None,  # unusable until the trainee chooses one through the link
            )
    except IntegrityError:
        raise ConflictError(username_taken_message(person.username), field="username") from None
    user.groups.add(Group.objects.get(name=Role.TRAINEE.value))
    ledger_append(
        event=Event.TRAINEE_INVITED,
        subject_type=Subject.USER,
        subject_id=user.pk,
        payload={"username": user.username, "email": user.email},
        actor=actor,
    )
    transaction.on_commit(lambda: send_invitation(user_id=user.pk, link_base=link_base))
    return user


def trainee_invitation_resend(
    *,
    actor: AbstractBaseUser,
    training_class: TrainingClass,
    trainee: AbstractBaseUser,
    link_base: str,
) -> None:
    """A new link for a trainee of the class who has not chosen a password yet (the first
    one expired or was lost). Django's own reset form skips accounts without a usable
    password, so this is their only way in."""
    may_manage_class(actor, training_class)
    if not training_class.trainees.filter(pk=trainee.pk).exists():
        raise NotFoundError(f"no such trainee on {training_class.name}", field="trainee")
    if trainee.has_usable_password():
        raise ConflictError(
            f"{echo(trainee.get_username())} has chosen a password already: they can reset "
            "it from the login page",
            field="trainee",
        )
    if not getattr(trainee, "email", ""):
        raise ConflictError("this trainee has no e-mail address", field="trainee")
    with transaction.atomic():
        ledger_append(
            event=Event.INVITATION_RESENT,
            subject_type=Subject.USER,
            subject_id=trainee.pk,
            payload={"username": trainee.get_username(), "class_id": training_class.pk},
            actor=actor,
        )
        transaction.on_commit(lambda: send_invitation(user_id=trainee.pk, link_base=link_base))


def invitation_link(*, user: AbstractBaseUser, link_base: str) -> str:
    path = reverse(
        "password_reset_confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),  # type: ignore[arg-type]
        },
    )
    return link_base.rstrip("/") + path


def send_invitation(*, user_id: int, link_base: str) -> None:
    """The e-mail with the link to choose a password: its roles in words, and how long the
    link works (SHOESCHOOL_PASSWORD_LINK_DAYS). Sent on commit by the services that invite."""
    user = get_user_model().objects.get(pk=user_id)
    held = roles_of(user)
    labels = [role.label.lower() for role in Role if role in held]
    context = {
        "user": user,
        "link": invitation_link(user=user, link_base=link_base),
        "link_validity": link_validity_words(),
        "roles_words": ", ".join(labels) or "no role yet",
        "account_words": "trainee account" if held == {Role.TRAINEE} else "account",
    }
    subject = render_to_string("registration/invitation_subject.txt", context).strip()
    body = render_to_string("registration/invitation_email.txt", context)
    send_mail(subject, body, None, [user.email])
