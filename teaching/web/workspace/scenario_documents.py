"""Staging a round as a document (/teach/scenarios/new/document/, and the revision of a round
whose game has no form of its own): the document of the game's format, pasted or uploaded,
judged by the game that reads that format (``validate``), its refusal at the field with the
part of the document it names. Any game's round may be staged so; a game that names a form
(its ``staged_editor``) is offered that form first (scenario_forms)."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from core.errors import CHOICE_ERRORS, ProductError
from teaching.web.workspace.drills import round_preview
from trainer.games import DocumentError, game_named, game_names
from trainer.models import Scenario
from trainer.services.scenario_authoring import scenario_create, scenario_revise
from trainer.services.scenarios import document_game, profile_version_for

# A staged round is a few kilobytes; an upload larger than this is no round.
MAX_DOCUMENT_BYTES = 256 * 1024


class ScenarioDocumentForm(forms.Form):
    document = forms.CharField(
        required=False,
        label="The round, as a document",
        max_length=MAX_DOCUMENT_BYTES,
        widget=forms.Textarea(attrs={"rows": 18, "spellcheck": "false"}),
        help_text="A JSON object in its game's format: its format field says which game "
        "(one of the formats listed above), its rules field names the table.",
    )
    upload = forms.FileField(
        required=False,
        label="Or upload the document",
        help_text="A .json file; it is read in place of the text above.",
    )
    difficulty = forms.TypedChoiceField(
        error_messages=CHOICE_ERRORS,
        choices=[(n, str(n)) for n in range(1, 6)],
        coerce=int,
        initial=2,
    )

    def _text(self) -> tuple[str, str]:
        """The document's text, and the field it came from."""
        upload = self.cleaned_data.get("upload")
        if upload is None:
            return self.cleaned_data.get("document") or "", "document"
        if upload.size > MAX_DOCUMENT_BYTES:
            raise forms.ValidationError(
                {"upload": f"the file is larger than {MAX_DOCUMENT_BYTES // 1024} KB: no round is"}
            )
        try:
            return upload.read().decode("utf-8"), "upload"
        except UnicodeDecodeError:
            raise forms.ValidationError({"upload": "the file is not text (UTF-8)"}) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        text, field = self._text()
        if not text.strip():
            raise forms.ValidationError({"document": "paste the round's document, or upload it"})
        try:
            parsed = json.loads(text)
        except json.JSONDecodeError as error:
            raise forms.ValidationError(
                {
                    field: f"not a JSON document: {error.msg} at line {error.lineno}, "
                    f"column {error.colno}"
                }
            ) from None
        if not isinstance(parsed, dict):
            raise forms.ValidationError({field: "the document must be a JSON object ({ ... })"})
        data["parsed"] = parsed
        self.source_field = field
        return data


def _at(form: ScenarioDocumentForm, error: ProductError) -> None:
    """A refusal at the field it concerns: the difficulty's there, the document's at the
    document (or the upload it came from), naming the part of the document at fault."""
    if error.field == "difficulty":
        form.add_error("difficulty", error.message)
        return
    where = f"{error.field}: " if error.field and not error.message.startswith(error.field) else ""
    form.add_error(getattr(form, "source_field", "document"), f"{where}{error.message}")


def _saved(request: HttpRequest, form: ScenarioDocumentForm, current: Scenario | None) -> Any:
    user: Any = request.user
    document, difficulty = form.cleaned_data["parsed"], form.cleaned_data["difficulty"]
    if current is None:
        made = scenario_create(document=document, difficulty=difficulty, user=user)
        messages.success(request, f"The scenario '{made.title}' is in the library.")
    else:
        made = scenario_revise(
            scenario=current, document=document, difficulty=difficulty, user=user
        )
        messages.success(request, f"Revision {made.revision} of '{made.title}' is in the library.")
    return made


def _preview(document: dict[str, Any], game: str) -> dict[str, Any]:
    stated = document.get("rules")
    name = stated.get("profile") if isinstance(stated, dict) else stated
    version = profile_version_for(name, game=game) if isinstance(name, str) else None
    scenario = Scenario(title=str(document.get("title", "")), document=document, game=game)
    return round_preview(scenario, version=version)


def _judged(request: HttpRequest, form: ScenarioDocumentForm, current: Scenario | None) -> Any:
    """The posted document judged by its game, then previewed or saved: the preview's
    context, a redirect once saved, or None with the refusal on the form."""
    document = form.cleaned_data["parsed"]
    try:
        game = document_game(document)
        game.validate(document)
    except DocumentError as error:
        _at(form, error)
        return None
    if request.POST.get("action") == "preview":
        return _preview(document, game.name)
    try:
        _saved(request, form, current)
    except ProductError as error:
        if error.status in (403, 404):
            raise
        _at(form, error)
        return None
    return redirect("teach:scenarios")


def document_author(request: HttpRequest, current: Scenario | None) -> HttpResponse:
    """The document editor's page: a new round, or a revision of ``current``."""
    preview: dict[str, Any] | None = None
    status = 200
    if request.method == "POST":
        form = ScenarioDocumentForm(request.POST, request.FILES)
        status = 400
        if form.is_valid():
            judged = _judged(request, form, current)
            if isinstance(judged, HttpResponse):
                return judged
            if judged is not None:
                preview, status = judged, 200
    elif current is not None:
        shown = {key: value for key, value in current.document.items() if key != "id"}
        form = ScenarioDocumentForm(
            initial={"document": json.dumps(shown, indent=2), "difficulty": current.difficulty}
        )
    else:
        form = ScenarioDocumentForm()
    formats = [(game_named(name).title, game_named(name).scenario_format) for name in game_names()]
    context = {"form": form, "current": current, "preview": preview, "formats": formats}
    return render(request, "trainer/workspace/scenario_document.html", context, status=status)
