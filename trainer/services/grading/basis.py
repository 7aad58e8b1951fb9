"""What a round is graded against: its answer key and where the key came from, through the
round's game (trainer.games): the key stored when it was dealt, or one its game computes
again under a recorded profile version (a regrade).

`BasisCache` holds, for one batch of runs, every key, verdict and hash computed once per
distinct document, key, version and scenario (the rounds of one scenario share their
decoded values, so the ids are theirs); `JsonTexts` decodes each distinct JSON text once.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from trainer.games import DocumentError, Game, Verdict
from trainer.games.marking import money_figure, points_figure
from trainer.models import RuleProfileVersion, Scenario
from trainer.selectors.runs import scenario_newest_revision

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


class RoundValues:
    """A round (AttemptItem) as the grader reads it: its values, without a model instance."""

    __slots__ = (
        "answer_key",
        "attempt_id",
        "document",
        "game",
        "pk",
        "profile_version",
        "questions_shown",
        "scenario",
    )

    def __init__(
        self,
        pk: int,
        attempt_id: int,
        document: Any,
        answer_key: Any,
        profile_version: RuleProfileVersion,
        scenario: Scenario | None,
        game: Game,
        questions_shown: Any = None,
    ) -> None:
        self.game = game
        # When each question was first shown (by the dealt key's number): what the skill
        # figures count (trainer.shown.shown_questions).
        self.questions_shown = questions_shown or {}
        self.pk = pk
        self.attempt_id = attempt_id
        self.document = document
        self.answer_key = answer_key
        self.profile_version = profile_version
        self.scenario = scenario

    @property
    def profile_version_id(self) -> int:
        return self.profile_version.pk

    @property
    def scenario_id(self) -> int | None:
        return None if self.scenario is None else self.scenario.pk


@dataclass(frozen=True)
class ItemBasis:
    """What one round is graded against: its answer key and where the key came from."""

    key: list[dict[str, Any]]
    # The key the trainee was asked (the same list unless a regrade changed it).
    asked: list[dict[str, Any]]
    record: dict[str, Any]


class JsonTexts:
    """JSON decoded once per distinct text, and the text of each decoded value kept.

    The values are shared by every row that had the same text, so nobody may change them;
    the grader only reads them.
    """

    def __init__(self) -> None:
        self._values: dict[str, Any] = {}
        # id of a value -> (the value, kept alive so its id is not reused; its text)
        self._texts: dict[int, tuple[Any, str]] = {}

    def load(self, text: str | None) -> Any:
        if text is None:
            return None
        try:
            return self._values[text]
        except KeyError:
            value = self._values[text] = json.loads(text)
            self._texts[id(value)] = (value, text)
            return value

    def dump(self, value: Any) -> str:
        """The JSON text of a value (the text it was read from, for one read here)."""
        known = self._texts.get(id(value))
        if known is not None and known[0] is value:
            return known[1]
        text = json.dumps(value)
        if isinstance(value, dict | list):
            self._texts[id(value)] = (value, text)
        return text


# Right or not, the money moved wrongly, the points (None in a game counting money), the
# category.
Marked = tuple[bool, Decimal, Decimal | None, str]


def verdict_of(game: Game, expected: Mapping[str, Any], given: Any, missed: bool) -> Marked:
    """Whether an answer is right, its cost (the money it moves wrongly, in a game that
    counts money; its points, in a game that counts points), and its category (the
    game's)."""
    # Missed: the game's unanswered, the one scoring of a missed question (feedback's too).
    verdict = game.unanswered() if missed else game.compare(expected, given)
    return (
        verdict.right,
        money_figure(game, verdict.cost),
        points_figure(game, verdict.cost),
        category_of(game, verdict),
    )


def category_of(game: Game, verdict: Verdict) -> str:
    """The stored category of a verdict: "" when right; else the game's (every wrong
    answer names one: a game that does not is refused, never filed under a guess)."""
    if verdict.right:
        return ""
    if not verdict.category:
        raise DocumentError(
            f"the game {game.name} marked an answer wrong without saying why",
            field="category",
            reason="no_category",
        )
    return str(verdict.category)


class BasisCache:
    """Answer keys for a batch of runs, looking each profile and scenario up once."""

    def __init__(self) -> None:
        self._versions: dict[int, RuleProfileVersion] = {}
        self._scenarios: dict[int, Scenario] = {}
        self.json = JsonTexts()
        # Keyed by the ids of shared values (from `json`, which keeps them alive).
        self._verdicts: dict[tuple[int, int, int, bool], Marked] = {}
        self._bases: dict[tuple[Any, ...], ItemBasis] = {}
        self._hashes: dict[int, tuple[Any, str]] = {}

    def verdict(
        self, game: Game, expected: Mapping[str, Any], given: Any, *, missed: bool
    ) -> Marked:
        """`verdict_of`, computed once per game, question and answer value in the batch."""
        key = (id(game), id(expected), id(given), missed)
        found = self._verdicts.get(key)
        if found is None:
            found = self._verdicts[key] = verdict_of(game, expected, given, missed)
            # Keep both alive so their ids stay theirs.
            self._hashes.setdefault(id(expected), (expected, ""))
            self._hashes.setdefault(id(given), (given, ""))
        return found

    def document_hash(self, document: Any) -> str:
        known = self._hashes.get(id(document))
        if known is None or known[0] is not document or not known[1]:
            known = self._hashes[id(document)] = (document, _document_hash(document))
        return known[1]

    def basis(self, item: RoundValues, *, regrade: bool) -> ItemBasis:
        """`_basis`, once per document, key, version and scenario in the batch (the rounds
        of one scenario share their decoded document and key, so the ids are theirs)."""
        key = (
            id(item.document),
            id(item.answer_key),
            item.profile_version_id,
            item.scenario_id,
            regrade,
        )
        found = self._bases.get(key)
        if found is None:
            found = self._bases[key] = self._basis(item, regrade=regrade)
            self._hashes.setdefault(id(item.answer_key), (item.answer_key, ""))
        return found

    def _basis(self, item: RoundValues, *, regrade: bool) -> ItemBasis:
        """A submit is graded against the key stored when the round was dealt (the engine's
        key for the same document and profile version); a regrade recomputes it from the
        newest revision of the scenario under the newest correction of its profile version."""
        version = item.profile_version
        document = item.document
        scenario_id = item.scenario_id
        if regrade:
            version = self._newest_version(version)
            if item.scenario is not None:
                newest = self._newest_scenario(item.scenario)
                scenario_id = newest.pk
                if newest.pk != item.scenario_id:
                    document = newest.document
        record: dict[str, Any] = {
            "profile_version": version.pk,
            "version": version.version,
            "scenario": scenario_id,
            "document_sha256": self.document_hash(document),
        }
        game = item.game
        asked = item.answer_key or game.answer_key(
            _under(game, item.document, item.profile_version)
        )
        if not regrade:
            record["key"] = "stored" if item.answer_key else "recomputed"
            return ItemBasis(asked, asked, record)
        record["key"] = "recomputed"
        return ItemBasis(game.answer_key(_under(game, document, version)), asked, record)

    def _newest_version(self, version: RuleProfileVersion) -> RuleProfileVersion:
        """The newest correction of the rules a round was dealt under: the version in force
        when they took effect (a correction starts with the version it corrects; a house's
        later change of rules starts later, and never reaches the rounds dealt before)."""
        if version.pk not in self._versions:
            found = version.profile.version_in_effect(at=version.effective_from)
            self._versions[version.pk] = found or version
        return self._versions[version.pk]

    def _newest_scenario(self, scenario: Scenario) -> Scenario:
        if scenario.pk not in self._scenarios:
            self._scenarios[scenario.pk] = scenario_newest_revision(scenario=scenario)
        return self._scenarios[scenario.pk]


def graded_keys(
    *, regrade: bool, basis: Mapping[str, Any], items: Sequence[RoundValues]
) -> dict[int, tuple[list[dict[str, Any]], list[dict[str, Any]]]]:
    """Each round's key as a finished run graded it, and the key its trainee was asked, by
    round id: what the run's grades answer, read again after the run (its summary built
    from the database). A submit was graded against the key dealt (or, for a round dealt
    before keys were stored, the engine's key for it); a regrade's key is computed again
    from the profile version and scenario revision its ``basis`` records."""
    out: dict[int, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {}
    versions: dict[int, RuleProfileVersion] = {}
    documents: dict[int, Any] = {}
    for item in items:
        game = item.game
        asked = item.answer_key or game.answer_key(
            _under(game, item.document, item.profile_version)
        )
        record = basis.get(str(item.pk))
        if not regrade or not isinstance(record, Mapping) or "profile_version" not in record:
            out[item.pk] = (asked, asked)
            continue
        version_id = record["profile_version"]
        version = versions.get(version_id)
        if version is None:
            version = versions[version_id] = (
                item.profile_version
                if version_id == item.profile_version_id
                else RuleProfileVersion.objects.select_related("profile")
                .only("id", "version", "parameters", "profile_id", "profile__id", "profile__name")
                .get(pk=version_id)
            )
        document = item.document
        scenario_id = record.get("scenario")
        if scenario_id is not None and scenario_id != item.scenario_id:
            if scenario_id not in documents:
                documents[scenario_id] = (
                    Scenario.objects.only("id", "document").get(pk=scenario_id).document
                )
            document = documents[scenario_id]
        out[item.pk] = (game.answer_key(_under(game, document, version)), asked)
    return out


def _document_hash(document: Any) -> str:
    text = json.dumps(document, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _under(game: Game, document: Mapping[str, Any], version: RuleProfileVersion) -> dict[str, Any]:
    """The document as it plays under a recorded profile version (the game decides how)."""
    return game.under_profile(document, profile=version.profile.name, parameters=version.parameters)
