"""Rule profile versions: a correction to a house's rules is a new version, never an edit."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max

from core.errors import TrainerError
from ledger.events import Event
from ledger.services.append import ledger_append
from trainer import rules
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
    Raises TrainerError naming the parameter at fault, or when no note says what changed.
    """
    if not notes.strip():
        raise TrainerError("say what this version corrects", field="notes")
    current = profile.current_version
    data = {**(current.parameters if current else {}), **parameters}
    data.pop("name", None)
    try:
        engine = rules.profile_from_dict({**data, "name": profile.name}, path="parameters")
    except rules.ScenarioError as exc:
        raise TrainerError(exc.message, field=exc.field) from exc
    stored = rules.profile_to_dict(engine)
    with transaction.atomic():
        RuleProfile.objects.select_for_update().get(pk=profile.pk)
        last = profile.versions.aggregate(last=Max("version"))["last"] or 0
        version = RuleProfileVersion.objects.create(
            profile=profile,
            version=last + 1,
            parameters=stored,
            source=engine.source,
            assumed=list(engine.assumed),
            notes=notes.strip(),
            created_by_id=getattr(user, "pk", None),
        )
        ledger_append(
            event=Event.PROFILE_VERSION_CREATED,
            subject_type="rule_profile_version",
            subject_id=version.pk,
            payload={
                "profile": profile.name,
                "version": version.version,
                "parameters": stored,
                "notes": version.notes,
            },
            actor=user,
        )
    return version
