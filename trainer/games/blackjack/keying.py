"""Keying blackjack's rounds: the engine's answer key, and a round replayed under a
recorded rule profile version."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trainer import rules
from trainer.games.blackjack import lines
from trainer.games.errors import DocumentError
from trainer.rules.profiles import CHIP_PARAMETERS


class BlackjackKeying:
    def settled_line(self, text: str) -> str:
        return lines.settled_line(text)

    def answer_key_line(self, text: str) -> str:
        return lines.answer_key_line(text)

    def answer_key(self, document: Mapping[str, Any]) -> list[dict[str, Any]]:
        try:
            return rules.answer_key(document)
        except rules.ScenarioError as err:
            raise DocumentError(err.message, field=err.field, reason=err.reason) from err

    def under_profile(
        self, document: Mapping[str, Any], *, profile: str, parameters: Mapping[str, Any]
    ) -> dict[str, Any]:
        try:
            return under_profile(document, profile=profile, parameters=parameters)
        except rules.ScenarioError as err:
            raise DocumentError(err.message, field=err.field, reason=err.reason) from err


def under_profile(
    document: Mapping[str, Any], *, profile: str, parameters: Mapping[str, Any]
) -> dict[str, Any]:
    """The document with its rules replaced by a recorded profile version's parameters.

    The engine knows only the shipped profiles by name, so a recorded version becomes the
    document's base profile plus overrides for every parameter that differs; overrides the
    scenario states itself still apply on top.
    """
    stated = document.get("rules")
    own: Mapping[str, Any] = {}
    if isinstance(stated, Mapping):
        base_name = stated.get("profile")
        own = stated.get("overrides") or {}
    else:
        base_name = stated
    base = rules.PROFILES.get(base_name) if isinstance(base_name, str) else None
    if base is None:
        # Unknown to the engine: let it name the fault.
        rules.profile_from_rules(stated)
        raise AssertionError("unreachable")  # pragma: no cover
    shipped = rules.profile_to_dict(base)
    target = rules.profile_to_dict(rules.profile_from_dict({**parameters, "name": profile}))
    # Chip parameters only where the version states them: one recorded before chips plays
    # with its base's chips, so its documents keep their rules (and rule texts) unchanged.
    overrides = {
        key: value
        for key, value in target.items()
        if key not in ("name", "source", "assumed")
        and value != shipped.get(key)
        and (key not in CHIP_PARAMETERS or key in parameters)
    }
    overrides.update(own)
    out = dict(document)
    out["rules"] = {"profile": base_name, "overrides": overrides} if overrides else base_name
    return out
