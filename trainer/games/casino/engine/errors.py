"""The one exception a bad `casino-scenario/1` document raises: a reason at a path."""

from __future__ import annotations

ECHO_LIMIT = 30  # the most of one input an error repeats (as core.errors.ECHO_LIMIT)


def clipped(text: str, limit: int = ECHO_LIMIT) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


class CasinoScenarioError(ValueError):
    """A document broke the format or the rules. `path` names the place ("table[2].value",
    "" for the whole document), `reason` is a short stable code, `str(err)` the sentence.
    `line` is the JSON Lines line number when the document came from one."""

    def __init__(self, path: str, reason: str, message: str, line: int | None = None) -> None:
        self.path = path
        self.reason = reason
        self.line = line
        self.message = message
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        place = f"{self.path}: " if self.path else ""
        return f"{where}{place}{self.message}"

    def at_line(self, line: int) -> CasinoScenarioError:
        return CasinoScenarioError(self.path, self.reason, self.message, line)

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"error": str(self), "path": self.path, "reason": self.reason}
        if self.line is not None:
            out["line"] = self.line
        return out
