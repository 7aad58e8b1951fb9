"""The one exception the rules engine raises for a scenario it cannot play."""

from __future__ import annotations


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
