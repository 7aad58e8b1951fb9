"""The seats-and-shoe editor: a round staged in plain fields (one row per box, the shoe as
cards in rank and suit, the cut card counted from 1) that becomes a document of its table's
game (blackjack's `blackjack-scenario/1`), and back again for a revision. It serves the
tables of the games that name it as their ``staged_editor`` (``EDITOR``); a game with no form
of its own is staged as a document (scenario_documents). The card picker and action
buttons (js/scenario-form.js) write into the same fields, which take the same words typed
without script.

The form checks only what it parses (a stake needs an amount); the engine judges the
round, and `field_for_path` puts its error at the form field its path names."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.db.models import QuerySet

from core.errors import CHOICE_ERRORS, clip, echo
from teaching.selectors.drills import library_profiles
from teaching.web.workspace.authoring_words import (
    actions_from_words,
    actions_text,
    card_code,
    cards_text,
    not_a_card,
)
from teaching.web.workspace.drill_forms import ProfileChoiceField
from trainer.games import Game, game_named, game_names
from trainer.games.authoring import Parameter
from trainer.labels import skill_choices
from trainer.models import RuleProfile

BOXES = range(1, 8)
RULE_ROWS = range(1, 4)
_YES_NO = {"yes": True, "no": False, "true": True, "false": False}


# The name a game gives this form as its ``staged_editor``.
EDITOR = "seats-and-shoe"


def editor_games() -> list[Game]:
    """The games whose rounds are staged in this form (blackjack's)."""
    return [game_named(name) for name in game_names() if game_named(name).staged_editor == EDITOR]


def editor_profiles() -> QuerySet[RuleProfile]:
    """The library's tables this form stages rounds for: its games' tables only."""
    return library_profiles().filter(game__in=[game.name for game in editor_games()])


def _parameters() -> list[Parameter]:
    found: dict[str, Parameter] = {}
    for game in editor_games():
        for parameter in game.parameters:
            found.setdefault(parameter.key, parameter)
    return list(found.values())


def rule_choices() -> list[tuple[str, str]]:
    """The rules a round may change from its table's, in a pit boss's words, with how each
    value is written (the game's parameters). The game checks the values; its error lands
    on the row's value."""
    return [(p.key, p.round_words) for p in _parameters() if p.round_words]


def _parameter(name: str) -> Parameter | None:
    return next((p for p in _parameters() if p.key == name), None)


def _yes_no(rule: Parameter) -> bool:
    return bool(rule.choices) and all(isinstance(v, bool) for v, _ in rule.choices)


def rule_value(name: str, text: str) -> object:
    """A rule change's value as the game reads it, from how a person writes it. A value
    that does not parse is passed on as written, for the game to refuse by name."""
    word = text.strip().lower()
    rule = _parameter(name)
    if rule is None:
        return word
    written = dict(rule.written)
    if word in written:
        return written[word]
    if _yes_no(rule):
        return _YES_NO.get(word, text.strip())
    if rule.kind == "int":
        return int(word) if word.isdigit() else text.strip()
    return text.strip() if rule.kind == "amount" else word


def rule_text(name: str, value: object) -> str:
    """A stored rule change written back as the form takes it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    rule = _parameter(name)
    said = next(
        (w for w, v in (rule.written if rule else ()) if v == value and v is not None), None
    )
    return said if said is not None else str(value)


BOX_PARTS = ("stakes", "actions", "insurance", "even_money")
_SPLIT = re.compile(r"[\s,]+")
_PATH = re.compile(r"^boxes\[(\d+)\](?:\.(\w+))?")
_BOX_IN_MESSAGE = re.compile(r"\bbox (\d+):")
_RULE_PATH = re.compile(r"^rules\.overrides\.(\w+)")


def _words(text: str) -> list[str]:
    return [word for word in _SPLIT.split(text.strip()) if word]


def _skill_choices() -> list[tuple[str, Any]]:
    """The skills a round staged here is filed under: its games' (under each game's name
    when there are several); the service checks them against the table's game."""
    games = editor_games()
    if len(games) == 1:
        return skill_choices(games[0].name)
    return [(game.title, skill_choices(game.name)) for game in games]


class ScenarioForm(forms.Form):
    title = forms.CharField(max_length=200)
    profile = ProfileChoiceField(queryset=editor_profiles(), label="Table")
    skills = forms.MultipleChoiceField(
        error_messages=CHOICE_ERRORS, choices=_skill_choices, widget=forms.CheckboxSelectMultiple
    )
    difficulty = forms.TypedChoiceField(
        error_messages=CHOICE_ERRORS,
        choices=[(n, str(n)) for n in range(1, 6)],
        coerce=int,
        initial=2,
    )
    burn = forms.CharField(
        required=False,
        max_length=200,
        label="Burned cards",
        help_text='Cards burned before the deal, e.g. "Q♥" (exactly the table\'s burn count), '
        "or empty.",
    )
    shoe = forms.CharField(
        label="The shoe, in the order dealt",
        # Eight decks as cards and spaces; a longer text is no shoe.
        max_length=2500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Pick the cards with the rank and suit buttons, or type them: a rank (A, 2-10, "
        'J, Q, K) and a suit (♠ ♥ ♦ ♣, or s h d c), e.g. "A♥ K♦ 7♣" or "Ah Kd 7c".',
    )
    cut_card_before = forms.IntegerField(
        required=False,
        min_value=1,
        label="Cut card: placed before the shoe's card number",
        help_text="The first card dealt after the burn is card 1; on the drawn shoe, press the "
        "gap where the cut card goes. Empty: no cut card in this round.",
        error_messages={"min_value": "count the shoe's cards from 1: the first card is 1"},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for n in BOXES:
            self.fields[f"box_{n}_stakes"] = forms.CharField(
                required=False,
                label=f"Box {n}: stakes",
                help_text='Player and stake, the host first: "ana 25, ben 10".',
            )
            self.fields[f"box_{n}_actions"] = forms.CharField(
                required=False,
                label=f"Box {n}: the host's actions",
                help_text="In order: hit, stand, double, double for an amount (e.g. "
                '"double for 10"), split, surrender.',
            )
            self.fields[f"box_{n}_insurance"] = forms.CharField(
                required=False, label=f"Box {n}: insurance taken", help_text='"ana 10"'
            )
            self.fields[f"box_{n}_even_money"] = forms.CharField(
                required=False, label=f"Box {n}: even money taken by", help_text='"ana"'
            )
        for n in RULE_ROWS:
            self.fields[f"rule_{n}_name"] = forms.ChoiceField(
                error_messages=CHOICE_ERRORS,
                required=False,
                choices=[("", "(no change)"), *rule_choices()],
                label=f"Rule change {n}",
            )
            self.fields[f"rule_{n}_value"] = forms.CharField(
                required=False, label=f"Rule change {n}: the round's value"
            )
        # Which box each entry of the document's `boxes` is, to place the engine's errors.
        self.box_order: list[int] = []
        # Which row holds each rule change, to place the engine's errors.
        self.rule_rows: dict[str, int] = {}

    def seat_rows(self) -> list[list[forms.BoundField]]:
        return [[self[f"box_{n}_{part}"] for part in BOX_PARTS] for n in BOXES]

    def main_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("title", "profile", "skills", "difficulty")]

    def rule_fields(self) -> list[list[forms.BoundField]]:
        return [[self[f"rule_{n}_name"], self[f"rule_{n}_value"]] for n in RULE_ROWS]

    def shoe_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("burn", "shoe", "cut_card_before")]

    def _cards(self, name: str) -> list[str]:
        codes = []
        for index, word in enumerate(_words(self.cleaned_data.get(name) or "")):
            code = card_code(word)
            if code is None:
                raise forms.ValidationError(not_a_card(name, index, f"'{clip(word, 12)}'"))
            codes.append(code)
        return codes

    def clean_shoe(self) -> list[str]:
        return self._cards("shoe")

    def clean_burn(self) -> list[str]:
        return self._cards("burn")

    def _pairs(self, name: str, *, default_player: str) -> list[tuple[str, str]]:
        pairs = []
        for piece in (p for p in self.cleaned_data.get(name, "").split(",") if p.strip()):
            words = piece.split()
            if len(words) == 1:
                words = [default_player, words[0]]
            if len(words) != 2:
                self.add_error(
                    name, f"write each as a player's name and an amount, not {echo(piece.strip())}"
                )
                return []
            pairs.append((words[0], words[1]))
        return pairs

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        boxes = []
        self.box_order = []
        for n in BOXES:
            stakes = self._pairs(f"box_{n}_stakes", default_player=f"p{n}")
            actions = actions_from_words(_words(data.get(f"box_{n}_actions", "")))
            insurance = self._pairs(
                f"box_{n}_insurance", default_player=stakes[0][0] if stakes else f"p{n}"
            )
            even_money = _words(data.get(f"box_{n}_even_money", ""))
            if not stakes:
                for part in ("actions", "insurance", "even_money"):
                    if data.get(f"box_{n}_{part}"):
                        self.add_error(
                            f"box_{n}_stakes", f"box {n} has no stakes: seat a player first"
                        )
                        break
                continue
            box: dict[str, Any] = {
                "box": n,
                "stakes": [{"player": p, "amount": a} for p, a in stakes],
                "actions": actions,
            }
            if insurance:
                box["insurance"] = dict(insurance)
            if even_money:
                box["even_money"] = even_money
            boxes.append(box)
            self.box_order.append(n)
        if not boxes and not self.errors:
            self.add_error("box_1_stakes", "seat at least one player")
        data["boxes"] = boxes
        data["overrides"] = self._rule_changes(data)
        return data

    def _rule_changes(self, data: dict[str, Any]) -> dict[str, object]:
        changes: dict[str, object] = {}
        self.rule_rows = {}
        for n in RULE_ROWS:
            name, value = data.get(f"rule_{n}_name") or "", data.get(f"rule_{n}_value") or ""
            if not name:
                if value.strip():
                    self.add_error(f"rule_{n}_name", "choose which rule this value changes")
                continue
            if name in changes:
                self.add_error(f"rule_{n}_name", "this rule is already changed above")
                continue
            if not value.strip():
                self.add_error(f"rule_{n}_value", "write the rule's value for this round")
                continue
            changes[name] = rule_value(name, value)
            self.rule_rows[name] = n
        return changes

    def document(self) -> dict[str, Any]:
        """The scenario document of a valid form (its `id` is the service's to give)."""
        data = self.cleaned_data
        doc: dict[str, Any] = {
            "format": game_named(data["profile"].game).scenario_format,
            "title": data["title"].strip(),
            "skills": list(data["skills"]),
            "rules": (
                {"profile": data["profile"].name, "overrides": data["overrides"]}
                if data.get("overrides")
                else data["profile"].name
            ),
            "boxes": data["boxes"],
            "shoe": list(data["shoe"]),
        }
        if data.get("burn"):
            doc["burn"] = list(data["burn"])
        if data.get("cut_card_before") is not None:
            # The engine counts the shoe from 0; the form, as a dealer does, from 1.
            doc["cut_card_at"] = data["cut_card_before"] - 1
        return doc

    def field_for_path(self, path: str | None, message: str = "") -> str | None:
        """The form field an engine or service error's path names (None: the whole form)."""
        path = path or ""
        changed = _RULE_PATH.match(path)
        if changed and changed.group(1) in self.rule_rows:
            return f"rule_{self.rule_rows[changed.group(1)]}_value"
        found = _PATH.match(path)
        if found:
            index, part = int(found.group(1)), found.group(2) or "stakes"
            if index < len(self.box_order):
                return f"box_{self.box_order[index]}_{part if part in BOX_PARTS else 'stakes'}"
        head = re.split(r"[\[.]", path, maxsplit=1)[0]
        simple = {
            "rules": "profile",
            "id": "title",
            "shoe": "shoe",
            "burn": "burn",
            "cut_card_at": "cut_card_before",
            "skills": "skills",
            "title": "title",
            "difficulty": "difficulty",
        }
        if head in simple:
            return simple[head]
        box = _BOX_IN_MESSAGE.search(message)
        if box and int(box.group(1)) in BOXES:
            return f"box_{box.group(1)}_actions"
        return None


def initial_from(document: dict[str, Any], *, difficulty: int, profile: Any) -> dict[str, Any]:
    """The form's fields for a stored scenario (the latest revision, to be revised)."""
    initial: dict[str, Any] = {
        "title": document.get("title", ""),
        "profile": profile.pk,
        "skills": list(document.get("skills") or []),
        "difficulty": difficulty,
        "shoe": cards_text(list(document.get("shoe") or [])),
        "burn": cards_text(list(document.get("burn") or [])),
        "cut_card_before": (
            document["cut_card_at"] + 1 if isinstance(document.get("cut_card_at"), int) else None
        ),
    }
    stated = document.get("rules")
    changes = (stated.get("overrides") or {}) if isinstance(stated, dict) else {}
    for n, (name, value) in zip(RULE_ROWS, changes.items(), strict=False):
        initial[f"rule_{n}_name"] = name
        initial[f"rule_{n}_value"] = rule_text(name, value)
    for box in document.get("boxes") or []:
        n = box.get("box")
        initial[f"box_{n}_stakes"] = ", ".join(
            f"{s['player']} {s['amount']}" for s in box.get("stakes") or []
        )
        initial[f"box_{n}_actions"] = actions_text(list(box.get("actions") or []))
        initial[f"box_{n}_insurance"] = ", ".join(
            f"{p} {a}" for p, a in (box.get("insurance") or {}).items()
        )
        initial[f"box_{n}_even_money"] = " ".join(box.get("even_money") or [])
    return initial
