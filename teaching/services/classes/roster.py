"""A roster file: every row checked first, then applied whole in one transaction, or
nothing at all written and every refused row named by line and column.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import transaction

from core.errors import ProductError, clip, echo
from core.roles import Role, has_role, roles_of
from core.usernames import username_key, users_with_username
from ledger.events import Event, Subject
from ledger.services.append import ledger_append
from teaching.services.classes.invitations import (
    ADDRESS_NOT_USABLE,
    Person,
    invite_person,
    person_cleaned,
    person_problems,
    username_taken_message,
)
from teaching.services.classes.membership import (
    NAME_MAX,
    addable_trainee_required,
    class_trainee_add,
    may_manage,
)
from trainer.models import TrainingClass

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, User

# A roster file is a class list, not a bulk load: past this, split it.
ROSTER_MAX_ROWS = 500
ROSTER_COLUMNS = ("username", "first_name", "last_name", "email", "class")


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
    that lacks a column, or a file that is not CSV, is a ProductError naming it."""
    text = text.lstrip("\ufeff")  # the byte-order mark a spreadsheet puts first
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        header = [(name or "").strip().lower() for name in reader.fieldnames or []]
    except csv.Error as exc:
        raise ProductError(f"the file is not CSV: {exc}", field=field_name) from None
    missing = [column for column in ROSTER_COLUMNS if column not in header]
    if missing:
        raise ProductError(
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
        raise ProductError(f"line {reader.line_num}: {exc}", field=field_name) from None
    return rows


def roster_import(
    *, actor: AbstractBaseUser, rows: Iterable[tuple[int, Mapping[str, Any]]], link_base: str
) -> RosterReport:
    """Apply a roster: each row's trainee on its class, invited first if new (an existing
    account is added as it is). Every row is checked before anything is written; one
    refused row and nothing at all is written, and the report names each refused row by
    line and column."""
    may_manage(actor)
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
        person = person_cleaned(
            Person(values["username"], values["email"], values["first_name"], values["last_name"])
        )
        problems: list[tuple[str | None, str]] = []
        class_name = " ".join(values["class"].split())
        training_class = classes.get(class_name.lower())
        if not class_name:
            problems.append(("class", "the class is required"))
        elif training_class is None:
            problems.append(("class", f"no class {echo(class_name)} among the classes you teach"))
        key = username_key(person.username)
        if key and key in seen_usernames:
            problems.append(
                ("username", f"{echo(person.username)} is on line {seen_usernames[key]} too")
            )
        existing = users_with_username(person.username).first() if key else None
        if existing is not None:
            if Role.TRAINEE not in roles_of(existing):
                # The same words as a new trainee's taken username: nothing about whose.
                problems.append(("username", username_taken_message(person.username)))
            elif (
                training_class is not None
                and training_class.trainees.filter(pk=existing.pk).exists()
            ):
                report.already.append(existing.username)
            else:
                try:
                    addable_trainee_required(actor=actor, trainee=existing)
                except ProductError as refusal:
                    problems.append(("username", refusal.message))
        else:
            problems.extend(person_problems(person))
            email = person.email.lower()
            if email and email in seen_emails:
                problems.append(
                    ("email", f"{echo(person.email)} is on line {seen_emails[email]} too")
                )
            elif email and users.filter(email__iexact=email).exists():
                problems.append(("email", ADDRESS_NOT_USABLE))
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
            trainee = existing or invite_person(actor=actor, person=person, link_base=link_base)
            if existing is None:
                report.invited.append(trainee.username)
            if existing is not None and existing.username in report.already:
                continue
            class_trainee_add(actor=actor, training_class=training_class, trainee=trainee)
            report.added.append(trainee.username)
        ledger_append(
            event=Event.ROSTER_IMPORTED,
            subject_type=Subject.ROSTER,
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
