"""Rule profile versions: a correction to a house's rules is a new version, never an edit.

A correction (`profile_version_create`, from the shell) starts when the version it corrects
did, so a regrade replays the rounds dealt under that version under it. A house's change
of rules from a date is `trainer.services.house_rules.house_rules_change`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from core.errors import ConflictError, ProductError
from ledger.events import Event, Subject
from ledger.services.append import ledger_append
from trainer.games import DocumentError, game_named
from trainer.models import RuleProfile, RuleProfileVersion


def profile_version_create(
    *,
    profile: RuleProfile,
    parameters: Mapping[str, Any],
    notes: str,
    user: AbstractBaseUser | None = None,
) -> RuleProfileVersion:
    """Record the next version of a profile after the engine accepts its parameters.

    `parameters` may hold only what changes: the rest is taken from the current version.
    Raises ProductError naming the parameter at fault, or when no note says what changed,
    or while a change of the house's rules is scheduled (correct it once it is in force).
    """
    if not notes.strip():
        raise ProductError("say what this version corrects", field="notes")
    current = profile.current_version
    scheduled = profile.versions.filter(effective_from__gt=timezone.now()).first()
    if scheduled is not None:
        raise ConflictError(
            f"version {scheduled.version} is scheduled from "
            f"{timezone.localtime(scheduled.effective_from):%d %B %Y}: a correction now would "
            "not reach it; correct the rules once it is in force",
            field="notes",
        )
    data = {**(current.parameters if current else {}), **parameters}
    data.pop("name", None)
    try:
        judged = game_named(profile.game).profile_judged(data, name=profile.name)
    except DocumentError as exc:
        raise ProductError(exc.message, field=exc.field) from exc
    start = current.effective_from if current else timezone.now()
    return version_record(profile=profile, parameters=judged, notes=notes, user=user, start=start)


def version_record(
    *,
    profile: RuleProfile,
    parameters: Mapping[str, Any],
    notes: str,
    user: AbstractBaseUser | None,
    start: dt.datetime,
    payload: Mapping[str, Any] | None = None,
) -> RuleProfileVersion:
    """The next version of a profile with the parameters its game records
    (``profile_judged``), in force from `start`, and its `profile_version.created` entry,
    in one transaction (the profile locked)."""
    stored = dict(parameters)
    with transaction.atomic():
        RuleProfile.objects.select_for_update().get(pk=profile.pk)
        last = profile.versions.aggregate(last=Max("version"))["last"] or 0
        version = RuleProfileVersion.objects.create(
            profile=profile,
            version=last + 1,
            parameters=stored,
            source=stored.get("source") or "",
            assumed=list(stored.get("assumed") or ()),
            notes=notes.strip(),
            created_by_id=getattr(user, "pk", None),
            effective_from=start,
        )
        ledger_append(
            event=Event.PROFILE_VERSION_CREATED,
            subject_type=Subject.RULE_PROFILE_VERSION,
            subject_id=version.pk,
            payload={
                "profile": profile.name,
                "version": version.version,
                "parameters": stored,
                "notes": version.notes,
                "effective_from": start.isoformat(),
                **(payload or {}),
            },
            actor=user,
        )
    return version
