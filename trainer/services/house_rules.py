"""House rules changed by an administrator (issue #24): a new version of a table's rules
taking effect from a date, and a new table from a copy of one. Every rule is judged by the
engine; a refusal names the rule in a pit manager's words, at its field, and writes nothing.

Records keep the version they were made under (rounds, drills and scenarios point at it),
so a change reaches only what is dealt, built or authored once it is in force.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from core.errors import ConflictError, ForbiddenError, ProductError, clip, echo
from core.roles import Role, has_role
from ledger.events import Event, Subject
from ledger.services.append import ledger_append
from trainer.games import DocumentError, game_named, game_names
from trainer.models import RuleProfile, RuleProfileVersion
from trainer.selectors.house_rules import Rule, rule_of, rule_words
from trainer.services.profiles import version_record

NAME_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
NAME_MAX = 64
TITLE_MAX = 200
NOTES_MAX = 2000
AHEAD_DAYS_MAX = 366


def _administrator_required(actor: AbstractBaseUser) -> None:
    if not has_role(actor, Role.ADMIN):
        raise ForbiddenError("only an administrator changes a table's house rules")


def _rule_error(rule: Rule) -> ProductError:
    """A refused value in words, at its field (no parameter key, no engine path)."""
    if rule.kind == "int":
        limits = f"from {rule.low} to {rule.high}"
        empty = f", or empty for {rule.empty.lower()}" if rule.optional else ""
        message = f"{rule.label}: a whole number {limits}{empty}"
    elif rule.kind == "amount":
        empty = f", or empty for {rule.empty.lower()}" if rule.optional else ""
        message = f"{rule.label}: an amount above 0 with at most two decimals, such as 2.50{empty}"
    elif rule.kind == "chips":
        message = (
            f"{rule.label}: 1 to 12 different chip values, each above 0 with at most two "
            "decimals, separated by commas (such as 1, 5, 25, 100)"
        )
    else:
        words = "; ".join(text for _, text in rule.choices)
        message = f"{rule.label}: choose one of: {words}"
    return ProductError(message, field=rule.key)


def rules_judged(
    profile_name: str,
    base: Mapping[str, Any],
    parameters: Mapping[str, Any],
    *,
    game: str,
) -> dict[str, Any]:
    """The parameters the game records for `base` with `parameters` on top, or the first
    refusal in words at its field. Unknown keys are refused by name (the API sends keys)."""
    played = game_named(game)
    RULE_OF = rule_of(game)  # noqa: N806 - the game's rules by key
    meta = ("name", "source", "assumed")
    for key in parameters:
        if key not in RULE_OF and key not in meta:
            raise ProductError(
                f"{echo(str(key))} is not a rule of a table",
                field=f"parameters.{clip(str(key))}",
                code="unknown_rule",
            )
    given = {key: value for key, value in parameters.items() if key not in meta}
    data = {key: value for key, value in base.items() if key not in meta}
    changed = {key for key, value in given.items() if data.get(key) != value}
    data.update(given)
    # A rule the house now states is no longer one the engine assumed.
    assumed = [a for a in base.get("assumed") or () if a not in changed and a in RULE_OF]
    source = base.get("source") if isinstance(base.get("source"), str) else ""
    try:
        played.parameters_checked(data)
    except DocumentError as exc:
        raise _rule_error(RULE_OF[exc.field or ""]) from None
    try:
        return played.profile_judged(
            {**data, "source": source, "assumed": assumed}, name=profile_name, path=""
        )
    except DocumentError as exc:
        key = (exc.field or "").split(".")[-1].split("[")[0]
        rule = RULE_OF.get(key)
        if rule is not None and rule.refused:
            beside = rule_words(rule.beside, data.get(rule.beside), game=game)
            raise ProductError(f"{rule.label}: {rule.refused.format(beside)}", field=key) from None
        if key in RULE_OF:
            raise _rule_error(RULE_OF[key]) from None
        raise ProductError("these rules cannot be dealt: check every rule") from None


def start_of(day: dt.date) -> dt.datetime:
    """Now for today; for a later day its first instant in the house's time zone."""
    if day <= timezone.localdate():
        return timezone.now()
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min))


def house_rules_change(
    *,
    actor: AbstractBaseUser,
    profile: RuleProfile,
    parameters: Mapping[str, Any],
    effective_on: dt.date,
    notes: str,
    dry_run: bool = False,
    based_on: int | None = None,
) -> RuleProfileVersion:
    """A new version of a table's rules, in force from `effective_on` (today: at once; a
    later day: from its start in the house's time zone). `parameters` may hold every rule
    or only those that change (the rest from the newest version recorded). Administrators
    only; refuses a day in the past, a day before a change already scheduled, rules the
    engine refuses, the same rules again, and a change without a note. `dry_run` judges
    everything and returns the version unsaved (a preview), writing nothing. `based_on`,
    the version a form started from, refuses the change if another was recorded since
    (saving would silently undo it)."""
    _administrator_required(actor)
    notes = (notes or "").strip()
    if not notes:
        raise ProductError("say what changes and why, for the record", field="notes")
    if len(notes) > NOTES_MAX:
        raise ProductError(f"the note is longer than {NOTES_MAX} characters", field="notes")
    if not isinstance(effective_on, dt.date):
        raise ProductError("give the day the rules take effect", field="effective_on")
    if effective_on < timezone.localdate():
        raise ProductError(
            "the rules cannot take effect in the past: records already made keep the rules "
            "they were made under; choose today or a later day",
            field="effective_on",
        )
    if effective_on > timezone.localdate() + dt.timedelta(days=AHEAD_DAYS_MAX):
        # A change cannot be withdrawn, and none may come before it: a mistyped year would
        # hold the table's rules until then.
        raise ProductError(
            f"a change takes effect within {AHEAD_DAYS_MAX} days of today", field="effective_on"
        )
    with transaction.atomic():
        locked = RuleProfile.objects.select_for_update().get(pk=profile.pk)
        newest = locked.newest_version
        if based_on is not None and newest is not None and newest.version != based_on:
            raise ConflictError(
                f"version {newest.version} of these rules was recorded after you opened the "
                "form: open it again to start from it",
                code="rules_changed",
            )
        if newest is not None and effective_on < timezone.localdate(newest.effective_from):
            raise ConflictError(
                f"version {newest.version} takes effect on "
                f"{timezone.localtime(newest.effective_from):%d %B %Y}: a later change takes "
                "effect on that day or after it",
                field="effective_on",
            )
        base = newest.parameters if newest is not None else {}
        judged = rules_judged(locked.name, base, parameters, game=locked.game)
        if newest is not None:
            same = game_named(locked.game).profile_judged(newest.parameters, name=locked.name)
            if all(same.get(key) == judged.get(key) for key in rule_of(locked.game)):
                raise ProductError(
                    f"these are the same rules as version {newest.version}: change at least "
                    "one rule"
                )
        if dry_run:
            return RuleProfileVersion(
                profile=locked,
                version=(newest.version if newest is not None else 0) + 1,
                parameters=judged,
                notes=notes,
                effective_from=start_of(effective_on),
            )
        return version_record(
            profile=locked,
            parameters=judged,
            notes=notes,
            user=actor,
            start=start_of(effective_on),
            payload={"effective_on": effective_on.isoformat()},
        )


def _name_checked(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise ProductError("give the new table a short name", field="name")
    if len(name) > NAME_MAX or not NAME_RE.match(name):
        raise ProductError(
            "the short name takes lower-case letters, digits and single hyphens, at most "
            f"{NAME_MAX} characters (such as high-limit-shoe)",
            field="name",
        )
    if (
        any(name in game_named(game).shipped_profiles for game in game_names())
        or RuleProfile.objects.filter(name__iexact=name).exists()
    ):
        raise ConflictError(f"a table is already called {name}: choose another", field="name")
    return name


def _title_checked(title: str) -> str:
    title = " ".join((title or "").split())
    if not title:
        raise ProductError("give the new table a title, as the pit calls it", field="title")
    if len(title) > TITLE_MAX:
        raise ProductError(f"the title is longer than {TITLE_MAX} characters", field="title")
    if RuleProfile.objects.filter(title__iexact=title).exists():
        raise ConflictError(
            f"a table already has the title {echo(title)}: choose another", field="title"
        )
    return title


def table_copy_create(
    *,
    actor: AbstractBaseUser,
    source: RuleProfile,
    name: str,
    title: str,
    parameters: Mapping[str, Any] | None = None,
    notes: str = "",
) -> RuleProfile:
    """A new table with the rules in force at `source` (with `parameters` on top), in force
    at once as its version 1. Administrators only; the short name is fixed from then on."""
    _administrator_required(actor)
    name = _name_checked(name)
    title = _title_checked(title)
    copied = source.current_version or source.newest_version
    if copied is None:
        raise ProductError("that table has no rules to copy", field="source")
    judged = rules_judged(name, copied.parameters, parameters or {}, game=source.game)
    said = f"A copy of {source.title or source.name} (version {copied.version})"
    notes = (notes or "").strip()
    if len(notes) > NOTES_MAX:
        raise ProductError(f"the note is longer than {NOTES_MAX} characters", field="notes")
    try:
        with transaction.atomic():
            table = RuleProfile.objects.create(name=name, title=title, game=source.game)
            ledger_append(
                event=Event.PROFILE_CREATED,
                subject_type=Subject.RULE_PROFILE,
                subject_id=table.pk,
                payload={
                    "name": name,
                    "title": title,
                    "copied_from": source.name,
                    "copied_version": copied.version,
                },
                actor=actor,
            )
            version_record(
                profile=table,
                parameters=judged,
                notes=f"{said}. {notes}" if notes else f"{said}.",
                user=actor,
                start=timezone.now(),
            )
    except IntegrityError:
        raise ConflictError(
            f"a table is already called {name}: choose another", field="name"
        ) from None
    return table


PRACTICAL_WORDS = {None: "follow", True: "on", False: "off"}


def table_practical_set(
    *, profile: RuleProfile, required: bool | None, actor: AbstractBaseUser
) -> RuleProfile:
    """Whether a certification at this table needs a passed practical evaluation sheet:
    True or False, or None to follow the jurisdiction; recorded in the ledger."""
    _administrator_required(actor)
    if required not in PRACTICAL_WORDS:
        raise ProductError(
            "the practical test: choose required, not required, or as the jurisdiction says",
            field="practical_required",
        )
    with transaction.atomic():
        locked = RuleProfile.objects.select_for_update().get(pk=profile.pk)
        before = locked.practical_required
        locked.practical_required = required
        locked.save(update_fields=["practical_required"])
        ledger_append(
            event=Event.PROFILE_PRACTICAL_SET,
            subject_type=Subject.RULE_PROFILE,
            subject_id=locked.pk,
            payload={
                "profile": locked.name,
                "practical_required": PRACTICAL_WORDS[required],
                "before": PRACTICAL_WORDS[before],
            },
            actor=actor,
        )
    profile.practical_required = required
    return locked
