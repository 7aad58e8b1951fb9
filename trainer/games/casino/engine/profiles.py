"""The rule profile `scarne-casino` and its parameters (`sweeps`, `match_goal`)."""

from __future__ import annotations

from dataclasses import dataclass

PROFILE_NAME = "scarne-casino"
MATCH_GOALS = (None, 11, 21)


class ProfileError(ValueError):
    """A profile name or an override the engine does not know; `field` names the part."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class Profile:
    """A rule profile: sweeps score 1 each when on; a match goes to `match_goal` (or one hand)."""

    name: str = PROFILE_NAME
    sweeps: bool = False
    match_goal: int | None = None


SCARNE = Profile()


def profile_from(spec: object) -> Profile:
    """The profile a document's `rules` names: a name, or {"profile": NAME, "overrides": {}}."""
    if isinstance(spec, str):
        if spec != PROFILE_NAME:
            raise ProfileError("", f"unknown rule profile {spec[:30]!r} (known: {PROFILE_NAME})")
        return SCARNE
    if not isinstance(spec, dict):
        raise ProfileError("", "rules is a profile name or an object with profile and overrides")
    unknown = set(spec) - {"profile", "overrides"}
    if unknown:
        raise ProfileError(sorted(unknown)[0], "not a field of rules (profile, overrides)")
    base = profile_from(spec.get("profile"))
    overrides = spec.get("overrides", {})
    if not isinstance(overrides, dict):
        raise ProfileError("overrides", "overrides is an object of parameter: value")
    sweeps, goal = base.sweeps, base.match_goal
    for name, value in overrides.items():
        if name == "sweeps":
            if not isinstance(value, bool):
                raise ProfileError("overrides.sweeps", "sweeps is true or false")
            sweeps = value
        elif name == "match_goal":
            if isinstance(value, bool) or value not in MATCH_GOALS:
                raise ProfileError("overrides.match_goal", "match_goal is null, 11 or 21")
            goal = value
        else:
            raise ProfileError(
                f"overrides.{str(name)[:30]}", "not a parameter (sweeps, match_goal)"
            )
    return Profile(PROFILE_NAME, sweeps, goal)
