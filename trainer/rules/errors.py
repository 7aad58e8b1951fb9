"""The one exception the rules engine raises for a scenario it cannot play."""

from __future__ import annotations

# The most of one input an error repeats, as core.errors.ECHO_LIMIT (the engine imports
# nothing of the apps, so the rule is restated here).
ECHO_LIMIT = 30


def clipped(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis (a field name in a path)."""
    return text if len(text) <= limit else text[:limit] + "…"


def quoted(value: object, limit: int = ECHO_LIMIT) -> str:
    """A string from the scenario quoted, cut to ``limit`` characters; anything else by its
    JSON type. However long the input, the message stays short."""
    if isinstance(value, str):
        return repr(clipped(value, limit))
    return json_type_name(value)


def json_type_name(value: object) -> str:
    """How a value's type reads in an error message, in JSON's words ("an object", "null")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    names = {"dict": "an object", "list": "a list", "str": "a string", "int": "a number"}
    return names.get(type(value).__name__, f"a {type(value).__name__}")


class ScenarioError(Exception):
    """A scenario broke the format or the rules; names the field, the box and the reason.

    `reason` is a short stable code (``"illegal_action"``, ``"bad_amount"`` ...) for
    programs; `str(err)` is the sentence for people.
    """

    def __init__(self, field: str, reason: str, message: str, box: int | None = None) -> None:
        self.field = field
        self.reason = reason
        self.box = box
        self.message = f"box {box}: {message}" if box is not None else message
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message

    def to_dict(self) -> dict[str, object]:
        """The JSON-ready error object of the settlement format."""
        return {"error": self.message, "field": self.field, "box": self.box, "reason": self.reason}
