"""Training classes and their rosters: creating and renaming a class, putting trainees on
it and taking them off, instructors (admins only), inviting a new trainee, and a roster
file applied whole or not at all.

Who may: an administrator, any class; a pit boss, the classes they teach (a class they
create is theirs); nobody else. Every change is a ledger entry in its transaction.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.tokens import default_token_generator
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from core.errors import ConflictError, ForbiddenError, NotFoundError, TrainerError, clip, echo
from core.roles import Role, has_role, roles_of
from ledger.events import Event
from ledger.services.append import ledger_append
from trainer.models import TrainingClass

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, User

NAME_MAX = 120
# A roster file is a class list, not a bulk load: past this, split it.
ROSTER_MAX_ROWS = 500
ROSTER_COLUMNS = ("username", "first_name", "last_name", "email", "class")
PERSON_NAME_MAX = 150


def _may_manage(actor: AbstractBaseUser) -> None:
    if not has_role(actor, Role.PIT_BOSS, Role.ADMIN):
        raise ForbiddenError("only pit bosses and administrators manage classes")


def _may_manage_class(actor: AbstractBaseUser, training_class: TrainingClass) -> None:
    _may_manage(actor)
    if has_role(actor, Role.ADMIN):
        return
    if not training_class.instructors.filter(pk=actor.pk).exists():
        raise ForbiddenError(f"you do not teach {training_class.name}")


def _may_administer(actor: AbstractBaseUser) -> None:
    if not has_role(actor, Role.ADMIN):
        raise ForbiddenError("only administrators choose a class's instructors")


def _class_name(name: str, *, exclude: int | None = None) -> str:
    text = " ".join((name or "").split())
    if not text:
        raise TrainerError("a class needs a name", field="name")
    if len(text) > NAME_MAX:
        raise TrainerError(f"a class name is at most {NAME_MAX} characters", field="name")
    taken = TrainingClass.objects.filter(name__iexact=text)
    if exclude is not None:
        taken = taken.exclude(pk=exclude)
    if taken.exists():
        raise ConflictError(f"there is already a class named {echo(text)}", field="name")
    return text


def training_class_create(*, actor: AbstractBaseUser, name: str) -> TrainingClass:
    """A new class; a pit boss who creates one teaches it."""
    _may_manage(actor)
    with transaction.atomic():
        text = _class_name(name)
        training_class = TrainingClass.objects.create(name=text)
        if has_role(actor, Role.PIT_BOSS):
            training_class.instructors.add(actor.pk)
        ledger_append(
            event=Event.CLASS_CREATED,
            subject_type="training_class",
            subject_id=training_class.pk,
            payload={"name": text, "instructor_ids": list(_instructor_ids(training_class))},
            actor=actor,
        )
    return training_class


def _instructor_ids(training_class: TrainingClass) -> Iterable[int]:
    return training_class.instructors.order_by("pk").values_list("pk", flat=True)


def training_class_rename(
    *, actor: AbstractBaseUser, training_class: TrainingClass, name: str
) -> TrainingClass:
    _may_manage_class(actor, training_class)
    with transaction.atomic():
        text = _class_name(name, exclude=training_class.pk)
        if text == training_class.name:
            return training_class
        before = training_class.name
        training_class.name = text
        training_class.save(update_fields=["name"])
        ledger_append(
            event=Event.CLASS_RENAMED,
            subject_type="training_class",
            subject_id=training_class.pk,
            payload={"from": before, "to": text},
            actor=actor,
        )
    return training_class


def class_trainee_add(
    *, actor: AbstractBaseUser, training_class: TrainingClass, trainee: AbstractBaseUser
) -> None:
    """Put a trainee on the class's roster. Only trainees may be on one."""
    _may_manage_class(actor, training_class)
    if Role.TRAINEE not in roles_of(trainee):
        raise TrainerError(
            f"{echo(trainee.get_username())} is not a trainee: only trainees go on a roster",
            field="username",
        )
    if training_class.trainees.filter(pk=trainee.pk).exists():
        raise ConflictError(
            f"{echo(trainee.get_username())} is already on {training_class.name}",
            field="username",
        )
    with transaction.atomic():
        training_class.trainees.add(trainee.pk)
        ledger_append(
            event=Event.CLASS_TRAINEE_ADDED,
            subject_type="training_class",
            subject_id=training_class.pk,
            payload={"trainee_id": trainee.pk, "username": trainee.get_username()},
            actor=actor,
        )


def class_trainee_remove(
    *, actor: AbstractBaseUser, training_class: TrainingClass, trainee: AbstractBaseUser
) -> None:
    """Take a trainee off the roster; their account and record stay as they are."""
    _may_manage_class(actor, training_class)
    if not training_class.trainees.filter(pk=trainee.pk).exists():
        raise NotFoundError(f"no such trainee on {training_class.name}", field="trainee")
    with transaction.atomic():
        training_class.trainees.remove(trainee.pk)
        ledger_append(
            event=Event.CLASS_TRAINEE_REMOVED,
            subject_type="training_class",
            subject_id=training_class.pk,
            payload={"trainee_id": trainee.pk, "username": trainee.get_username()},
            actor=actor,
        )


def class_instructor_add(
    *, actor: AbstractBaseUser, training_class: TrainingClass, instructor: AbstractBaseUser
) -> None:
    _may_administer(actor)
    if Role.PIT_BOSS not in roles_of(instructor):
        raise TrainerError(
            f"{echo(instructor.get_username())} is not a pit boss", field="instructor"
        )
    if training_class.instructors.filter(pk=instructor.pk).exists():
        raise ConflictError(
            f"{echo(instructor.get_username())} already teaches {training_class.name}",
            field="instructor",
        )
    with transaction.atomic():
        training_class.instructors.add(instructor.pk)
        ledger_append(
            event=Event.CLASS_INSTRUCTOR_ADDED,
            subject_type="training_class",
            subject_id=training_class.pk,
            payload={"instructor_id": instructor.pk, "username": instructor.get_username()},
            actor=actor,
        )


def class_instructor_remove(
    *, actor: AbstractBaseUser, training_class: TrainingClass, instructor: AbstractBaseUser
) -> None:
    _may_administer(actor)
    if not training_class.instructors.filter(pk=instructor.pk).exists():
        raise NotFoundError(
            f"{echo(instructor.get_username())} does not teach {training_class.name}",
            field="instructor",
        )
    with transaction.atomic():
        training_class.instructors.remove(instructor.pk)
        ledger_append(
            event=Event.CLASS_INSTRUCTOR_REMOVED,
            subject_type="training_class",
            subject_id=training_class.pk,
            payload={"instructor_id": instructor.pk, "username": instructor.get_username()},
            actor=actor,
        )


# Inviting a trainee.


@dataclass(frozen=True)
class Person:
    """A new trainee as typed into a form or a roster row, not yet checked."""

    username: str
    email: str
    first_name: str = ""
    last_name: str = ""


def _person_problems(person: Person) -> list[tuple[str, str]]:
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


def _clean(person: Person) -> Person:
    return Person(
        username=(person.username or "").strip(),
        email=(person.email or "").strip(),
        first_name=(person.first_name or "").strip(),
        last_name=(person.last_name or "").strip(),
    )


def _taken_problems(person: Person) -> list[tuple[str, str]]:
    users = get_user_model().objects
    problems = []
    if users.filter(username__iexact=person.username).exists():
        problems.append(("username", f"the username {echo(person.username)} is taken"))
    if users.filter(email__iexact=person.email).exists():
        problems.append(("email", f"{echo(person.email)} is already another account's address"))
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
        _may_manage_class(actor, training_class)
    else:
        _may_manage(actor)
    person = _clean(Person(username, email, first_name, last_name))
    for column, message in _person_problems(person):
        raise TrainerError(message, field=column)
    for column, message in _taken_problems(person):
        raise ConflictError(message, field=column)
    with transaction.atomic():
        trainee = _invite(actor=actor, person=person, link_base=link_base)
        if training_class is not None:
            class_trainee_add(actor=actor, training_class=training_class, trainee=trainee)
    return trainee


def _invite(*, actor: AbstractBaseUser, person: Person, link_base: str) -> User:
    user: User = get_user_model().objects.create_user(
        username=person.username,
        email=person.email,
        first_name=person.first_name,
        last_name=person.last_name,
        password=None,  # unusable until the trainee chooses one through the link
    )
    user.groups.add(Group.objects.get(name=Role.TRAINEE.value))
    ledger_append(
        event=Event.TRAINEE_INVITED,
        subject_type="user",
        subject_id=user.pk,
        payload={"username": user.username, "email": user.email},
        actor=actor,
    )
    transaction.on_commit(lambda: _send_invitation(user_id=user.pk, link_base=link_base))
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
    _may_manage_class(actor, training_class)
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
            subject_type="user",
            subject_id=trainee.pk,
            payload={"username": trainee.get_username(), "class_id": training_class.pk},
            actor=actor,
        )
        transaction.on_commit(lambda: _send_invitation(user_id=trainee.pk, link_base=link_base))


def invitation_link(*, user: AbstractBaseUser, link_base: str) -> str:
    path = reverse(
        "password_reset_confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),  # type: ignore[arg-type]
        },
    )
    return link_base.rstrip("/") + path


def _send_invitation(*, user_id: int, link_base: str) -> None:
    user = get_user_model().objects.get(pk=user_id)
    context = {
        "user": user,
        "link": invitation_link(user=user, link_base=link_base),
        "link_minutes": settings.PASSWORD_RESET_TIMEOUT // 60,
    }
    subject = render_to_string("registration/invitation_subject.txt", context).strip()
    body = render_to_string("registration/invitation_email.txt", context)
    send_mail(subject, body, None, [user.email])


# The roster file.


@dataclass(frozen=True)
class RosterProblem:
    line: int
    column: str | None
    message: str


@dataclass
class RosterReport:
    """What a roster file did, or why it did nothing: ``problems`` empty means applied."""

    rows: int = 0
    invited: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    problems: list[RosterProblem] = field(default_factory=list)

    @property
    def applied(self) -> bool:
        return not self.problems


def roster_rows_from_csv(
    *, text: str, field_name: str = "file"
) -> list[tuple[int, dict[str, str]]]:
    """The rows of a roster CSV with their line numbers (the header is line 1). A header
    that lacks a column, or a file that is not CSV, is a TrainerError naming it."""
    text = text.lstrip("\ufeff")  # the byte-order mark a spreadsheet puts first
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        header = [(name or "").strip().lower() for name in reader.fieldnames or []]
    except csv.Error as exc:
        raise TrainerError(f"the file is not CSV: {exc}", field=field_name) from None
    missing = [column for column in ROSTER_COLUMNS if column not in header]
    if missing:
        raise TrainerError(
            f"the first line must name the columns {', '.join(ROSTER_COLUMNS)}; "
            f"missing: {', '.join(missing)}",
            field=field_name,
        )
    reader.fieldnames = header
    rows = []
    try:
        for record in reader:
            values = {
                key: (value or "").strip() if isinstance(value, str) else ""
                for key, value in record.items()
                if key in ROSTER_COLUMNS
            }
            if any(values.values()):
                rows.append((reader.line_num, values))
    except csv.Error as exc:
        raise TrainerError(f"line {reader.line_num}: {exc}", field=field_name) from None
    return rows


def roster_import(
    *, actor: AbstractBaseUser, rows: Iterable[tuple[int, Mapping[str, Any]]], link_base: str
) -> RosterReport:
    """Apply a roster: each row's trainee on its class, invited first if new (an existing
    account is added as it is). Every row is checked before anything is written; one
    refused row and nothing at all is written, and the report names each refused row by
    line and column."""
    _may_manage(actor)
    report = RosterReport()
    checked: list[tuple[Person, TrainingClass, User | None]] = []
    classes = _classes_by_name(actor)
    seen_usernames: dict[str, int] = {}
    seen_emails: dict[str, int] = {}
    users = get_user_model().objects
    for line, raw in rows:
        report.rows += 1
        if report.rows > ROSTER_MAX_ROWS:
            report.problems.append(
                RosterProblem(line, None, f"a roster holds at most {ROSTER_MAX_ROWS} rows")
            )
            break
        values = {k: (raw.get(k) or "") for k in ROSTER_COLUMNS}
        if not all(isinstance(v, str) for v in values.values()):
            report.problems.append(RosterProblem(line, None, "every column must be text"))
            continue
        person = _clean(
            Person(values["username"], values["email"], values["first_name"], values["last_name"])
        )
        problems: list[tuple[str | None, str]] = []
        class_name = " ".join(values["class"].split())
        training_class = classes.get(class_name.lower())
        if not class_name:
            problems.append(("class", "the class is required"))
        elif training_class is None:
            problems.append(("class", f"no class {echo(class_name)} among the classes you teach"))
        key = person.username.lower()
        if key and key in seen_usernames:
            problems.append(
                ("username", f"{echo(person.username)} is on line {seen_usernames[key]} too")
            )
        existing = users.filter(username__iexact=person.username).first() if key else None
        if existing is not None:
            if Role.TRAINEE not in roles_of(existing):
                problems.append(
                    ("username", f"{echo(person.username)} is an account that is not a trainee's")
                )
            elif (
                training_class is not None
                and training_class.trainees.filter(pk=existing.pk).exists()
            ):
                report.already.append(existing.username)
        else:
            problems.extend(_person_problems(person))
            email = person.email.lower()
            if email and email in seen_emails:
                problems.append(
                    ("email", f"{echo(person.email)} is on line {seen_emails[email]} too")
                )
            elif email and users.filter(email__iexact=email).exists():
                problems.append(
                    ("email", f"{echo(person.email)} is already another account's address")
                )
            if email:
                seen_emails.setdefault(email, line)
        if key:
            seen_usernames.setdefault(key, line)
        # A line's problems in the file's column order, as a person reads across it.
        problems.sort(key=lambda p: ROSTER_COLUMNS.index(p[0]) if p[0] else len(ROSTER_COLUMNS))
        report.problems.extend(RosterProblem(line, column, msg) for column, msg in problems)
        if not problems and training_class is not None:
            checked.append((person, training_class, existing))
    if not report.rows and not report.problems:
        report.problems.append(RosterProblem(1, None, "the roster has no rows"))
    if report.problems:
        return report
    with transaction.atomic():
        for person, training_class, existing in checked:
            trainee = existing or _invite(actor=actor, person=person, link_base=link_base)
            if existing is None:
                report.invited.append(trainee.username)
            if existing is not None and existing.username in report.already:
                continue
            class_trainee_add(actor=actor, training_class=training_class, trainee=trainee)
            report.added.append(trainee.username)
        ledger_append(
            event=Event.ROSTER_IMPORTED,
            subject_type="roster",
            subject_id=actor.pk,
            payload={
                "rows": report.rows,
                "invited": report.invited,
                "added": report.added,
                "already": report.already,
            },
            actor=actor,
        )
    return report


def _classes_by_name(actor: AbstractBaseUser) -> dict[str, TrainingClass]:
    classes = TrainingClass.objects.all()
    if not has_role(actor, Role.ADMIN):
        classes = classes.filter(instructors=actor.pk)
    return {clip(c.name, NAME_MAX).lower(): c for c in classes}
