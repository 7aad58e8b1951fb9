"""The game-fields editor: a round staged in the fields a game declares for it (its
``staged_form``, for a game whose ``staged_editor`` is ``EDITOR``), in its dealers' words,
with the title, table, skills and difficulty every round has. The game turns the fields into
its document and back (a revision opens filled in) and puts its refusals at the field they
concern in words; its ``validate`` judges the document, and the preview shows the table and
the answers the game works out before anything is saved. Nothing here names a game."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from core.errors import CHOICE_ERRORS, ProductError
from teaching.selectors.drills import library_profiles
from teaching.web.workspace.authoring_words import PICKER_SUITS, RANKS
from teaching.web.workspace.drill_forms import ProfileChoiceField
from teaching.web.workspace.drills import round_preview
from trainer.games import DocumentError, Game, game_named, game_names
from trainer.games.authoring import StagedField, StagedForm
from trainer.labels import skill_choices
from trainer.models import Scenario
from trainer.services.scenario_authoring import scenario_create, scenario_revise
from trainer.services.scenarios import profile_version_for

# The name a game gives this editor as its ``staged_editor``.
EDITOR = "game-fields"
MAIN = ("title", "profile", "skills", "difficulty")


def fields_games() -> list[Game]:
    """The games staged in their own fields, by name."""
    return [
        game
        for game in (game_named(name) for name in game_names())
        if game.staged_editor == EDITOR and game.staged_form is not None
    ]


def fields_game(name: object) -> Game | None:
    """The game called ``name`` when it is staged in its own fields; else None."""
    return next((game for game in fields_games() if game.name == name), None)


def _staged(game: Game) -> StagedForm:
    staged = game.staged_form
    assert staged is not None  # fields_games() offers no other
    return staged


def _django_field(field: StagedField) -> forms.Field:
    attrs: dict[str, str] = {}
    if field.shown_by is not None:
        attrs["data-shown-by"] = field.shown_by[0]
        attrs["data-shown-for"] = " ".join(field.shown_by[1])
    common: dict[str, Any] = {"label": field.label, "help_text": field.help, "required": False}
    if field.kind == "choice":
        return forms.ChoiceField(
            choices=list(field.choices),
            error_messages=CHOICE_ERRORS,
            widget=forms.Select(attrs=attrs),
            **common,
        )
    if field.kind == "choices":
        return forms.MultipleChoiceField(
            choices=list(field.choices),
            error_messages=CHOICE_ERRORS,
            widget=forms.CheckboxSelectMultiple(attrs=attrs),
            **common,
        )
    if field.kind == "number":
        attrs |= {"inputmode": "numeric", "size": "3"}
        return forms.CharField(max_length=3, widget=forms.TextInput(attrs=attrs), **common)
    if field.kind == "cards":
        attrs |= {"data-cards": "", "spellcheck": "false", "autocomplete": "off"}
    return forms.CharField(max_length=300, widget=forms.TextInput(attrs=attrs), **common)


class GameFieldsForm(forms.Form):
    title = forms.CharField(max_length=200)
    profile = ProfileChoiceField(queryset=library_profiles().none(), label="Table")
    skills = forms.MultipleChoiceField(
        error_messages=CHOICE_ERRORS, choices=(), widget=forms.CheckboxSelectMultiple
    )
    difficulty = forms.TypedChoiceField(
        error_messages=CHOICE_ERRORS,
        choices=[(n, str(n)) for n in range(1, 6)],
        coerce=int,
        initial=2,
    )

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        profile: Any = self.fields["profile"]
        profile.queryset = library_profiles().filter(game=game.name)
        tables = list(profile.queryset[:2])
        if len(tables) == 1 and not self.is_bound and "profile" not in self.initial:
            self.initial["profile"] = tables[0].pk  # the game's one table, chosen already
        skills: Any = self.fields["skills"]
        skills.choices = skill_choices(game.name)
        self.staged = _staged(game)
        for field in self.staged.fields:
            self.fields[field.name] = _django_field(field)

    def main_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in MAIN]

    def groups(self) -> list[tuple[str, list[tuple[str, list[forms.BoundField]]]]]:
        """The game's fields by group (a fieldset each) and, in a group, by row (fields
        drawn side by side), in its order."""
        out: list[tuple[str, list[tuple[str, list[forms.BoundField]]]]] = []
        for field in self.staged.fields:
            if not out or out[-1][0] != field.group:
                out.append((field.group, []))
            rows = out[-1][1]
            if not rows or not field.row or rows[-1][0] != field.row:
                rows.append((field.row, []))
            rows[-1][1].append(self[field.name])
        return out

    def values(self) -> dict[str, Any]:
        return {field.name: self.cleaned_data.get(field.name) for field in self.staged.fields}

    def place(self, field: str | None, message: str) -> None:
        self.add_error(field if field in self.fields else None, message)


def _document(form: GameFieldsForm) -> dict[str, Any] | None:
    """The posted fields as the game's document, judged by the game; None with the refusal
    at its field."""
    data, values = form.cleaned_data, form.values()
    try:
        document = form.staged.document(
            values, title=data["title"].strip(), skills=data["skills"], profile=data["profile"].name
        )
    except DocumentError as error:
        form.place(error.field, error.message)
        return None
    try:
        form.game.validate(document)
    except DocumentError as error:
        form.place(*form.staged.refusal(error, values))
        return None
    return document


def _saved(
    request: HttpRequest, form: GameFieldsForm, document: dict[str, Any], current: Any
) -> Any:
    return library_save(
        request, document=document, difficulty=form.cleaned_data["difficulty"], current=current
    )


def library_save(
    request: HttpRequest, *, document: dict[str, Any], difficulty: int, current: Any
) -> Scenario:
    """Put the document in the library, a new scenario or a revision of ``current``, and
    say so to the author (both of the workspace's editors)."""
    user: Any = request.user
    if current is None:
        made = scenario_create(document=document, difficulty=difficulty, user=user)
        messages.success(request, f"The scenario '{made.title}' is in the library.")
    else:
        made = scenario_revise(
            scenario=current, document=document, difficulty=difficulty, user=user
        )
        messages.success(request, f"Revision {made.revision} of '{made.title}' is in the library.")
    return made


def _posted(
    request: HttpRequest, form: GameFieldsForm, current: Scenario | None
) -> HttpResponse | dict[str, Any] | None:
    """A posted form previewed (the preview's context) or saved (a redirect); None with the
    refusal on the form."""
    document = _document(form) if form.is_valid() else None
    if document is None:
        return None
    game = form.game
    if request.POST.get("action") == "preview":
        scenario = Scenario(title=document["title"], document=document, game=game.name)
        version = profile_version_for(form.cleaned_data["profile"].name, game=game.name)
        return round_preview(scenario, version=version)
    try:
        _saved(request, form, document, current)
    except ProductError as error:
        if error.status in (403, 404):
            raise
        if error.field in MAIN:
            form.place(error.field, error.message)
        else:
            form.place(
                *form.staged.refusal(
                    DocumentError(error.message, field=error.field or ""), form.values()
                )
            )
        return None
    return redirect("teach:scenarios")


def fields_author(request: HttpRequest, current: Scenario | None, game: Game) -> HttpResponse:
    """The game-fields editor's page: a new round of ``game``, or a revision of ``current``."""
    preview: dict[str, Any] | None = None
    status = 200
    if request.method == "POST":
        form = GameFieldsForm(request.POST, game=game)
        outcome = _posted(request, form, current)
        if isinstance(outcome, HttpResponse):
            return outcome
        preview, status = (outcome, 200) if outcome is not None else (None, 400)
    elif current is not None:
        initial = _staged(game).values(current.document)
        initial |= {
            "title": current.document.get("title", current.title),
            "profile": current.profile_version.profile.pk,
            "skills": list(current.document.get("skills") or []),
            "difficulty": current.difficulty,
        }
        form = GameFieldsForm(initial=initial, game=game)
    else:
        form = GameFieldsForm(game=game)
    context = {
        "form": form,
        "current": current,
        "preview": preview,
        "game_title": game.title,
        # The card picker (js/scenario-fields.js) writes into the cards field last focused.
        "ranks": RANKS,
        "suits": PICKER_SUITS,
    }
    return render(request, "trainer/workspace/scenario_fields.html", context, status=status)
