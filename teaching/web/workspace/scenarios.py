"""Scenario authoring at /teach/scenarios/: the library, staging a new round, and revising
one (the form opens prefilled from the latest revision; saving supersedes it)."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.views.decorators.http import require_GET, require_http_methods

from core.errors import ProductError
from teaching.selectors import drills as sel
from teaching.web.workspace.authoring_words import PICKER_SUITS, RANKS, error_words
from teaching.web.workspace.drills import round_preview, skill_labels, workspace
from teaching.web.workspace.scenario_documents import document_author
from teaching.web.workspace.scenario_fields import (
    fields_author,
    fields_game,
    fields_games,
    library_save,
)
from teaching.web.workspace.scenario_filters import SCENARIOS_PER_PAGE, ScenarioFilter
from teaching.web.workspace.scenario_forms import (
    BOXES,
    EDITOR,
    ScenarioForm,
    editor_games,
    initial_from,
)
from trainer.games import DocumentError, game_named
from trainer.models import Scenario
from trainer.services.scenarios import document_game, profile_version_for


@require_GET
@workspace
def scenario_list(request: HttpRequest) -> HttpResponse:
    """The library, searched and filtered (title words, table, skill, difficulty), a page at
    a time; filters that do not read show their error and no rows."""
    filters = ScenarioFilter(request.GET, queryset=sel.scenarios_listed())
    valid = filters.is_valid()
    page = Paginator(filters.qs if valid else Scenario.objects.none(), SCENARIOS_PER_PAGE)
    shown = page.get_page(request.GET.get("page"))
    rows = [
        {
            "scenario": s,
            "profile": s.profile_version.profile.title or s.profile_version.profile.name,
            "skills": skill_labels(s.skills),
        }
        for s in shown
    ]
    kept = request.GET.copy()
    kept.pop("page", None)
    context = {
        "rows": rows,
        "filters": filters,
        "page": shown,
        "query": kept.urlencode(),
        # The games staged in their own fields, each offered its form (?game=<name>).
        "field_games": [(game.name, game.title) for game in fields_games()],
    }
    return render(
        request, "trainer/workspace/scenarios.html", context, status=200 if valid else 400
    )


def _place(form: ScenarioForm, field: str | None, message: str, reason: str = "") -> None:
    """A refusal at the field it concerns, in the author's words (never the engine's paths,
    card codes or profile names)."""
    words = error_words(message, reason=reason, tables=sel.table_names())
    form.add_error(form.field_for_path(field, message), words)


def _save(
    request: HttpRequest, form: ScenarioForm, document: dict[str, Any], current: Scenario | None
) -> Scenario:
    return library_save(
        request, document=document, difficulty=form.cleaned_data["difficulty"], current=current
    )


def _author(request: HttpRequest, current: Scenario | None) -> HttpResponse:
    if request.method == "POST":
        form = ScenarioForm(request.POST)
    elif current is not None:
        form = ScenarioForm(
            initial=initial_from(
                current.document,
                difficulty=current.difficulty,
                profile=current.profile_version.profile,
            )
        )
    else:
        form = ScenarioForm()
    preview: dict[str, Any] | None = None
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            document = form.document()
            try:
                # The game judges the round first, so its own words reach the field.
                document_game(document).validate(document)
            except DocumentError as error:
                _place(form, error.field, error.message, error.reason)
            else:
                if request.POST.get("action") == "preview":
                    preview = round_preview(
                        Scenario(
                            title=document["title"],
                            document=document,
                            game=form.cleaned_data["profile"].game,
                        ),
                        version=profile_version_for(
                            form.cleaned_data["profile"].name,
                            game=form.cleaned_data["profile"].game,
                        ),
                    )
                    status = 200
                else:
                    try:
                        _save(request, form, document, current)
                    except ProductError as error:
                        if error.status in (403, 404):
                            raise
                        _place(form, error.field, error.message)
                        status = error.status
                    else:
                        return redirect("teach:scenarios")
    context = {
        "form": form,
        "current": current,
        "preview": preview,
        # The card picker and action buttons (js/scenario-form.js) write into the fields.
        "ranks": RANKS,
        "suits": PICKER_SUITS,
        "boxes": list(BOXES),
        "no_hole_card": " ".join(
            str(pk) for pk in sel.profiles_without_hole_card(games=[g.name for g in editor_games()])
        ),
    }
    return render(request, "trainer/workspace/scenario_form.html", context, status=status)


@require_http_methods(["GET", "POST"])
@workspace
def scenario_new(request: HttpRequest) -> HttpResponse:
    """A new round in the seats-and-shoe form, for the tables of the games that stage their
    rounds in it; with ``?game=`` naming a game staged in its own fields, in those
    (scenario_fields); with no such game, as a document."""
    chosen = fields_game(request.GET.get("game"))
    if chosen is not None:
        return fields_author(request, None, chosen)
    if not editor_games():
        return redirect("teach:scenario-new-document")
    return _author(request, None)


@require_http_methods(["GET", "POST"])
@workspace
def scenario_new_document(request: HttpRequest) -> HttpResponse:
    """A new round of any game, as a document of its format."""
    return document_author(request, None)


@require_http_methods(["GET", "POST"])
@workspace
def scenario_edit(request: HttpRequest, scenario_id: int) -> HttpResponse:
    scenario = sel.scenario_get_for_manager(scenario_id=scenario_id)
    if not scenario.is_active:
        newest = Scenario.objects.filter(slug=scenario.slug.split("--r")[0]).first()
        if newest is not None:
            return redirect("teach:scenario-edit", scenario_id=newest.pk)
    # The form the game names (seats and shoe, or its own fields); else its document.
    fields = fields_game(scenario.game)
    if fields is not None:
        return fields_author(request, scenario, fields)
    if game_named(scenario.game).staged_editor != EDITOR:
        return document_author(request, scenario)
    return _author(request, scenario)


urlpatterns = [
    path("scenarios/", scenario_list, name="scenarios"),
    path("scenarios/new/", scenario_new, name="scenario-new"),
    path("scenarios/new/document/", scenario_new_document, name="scenario-new-document"),
    path("scenarios/<id:scenario_id>/edit/", scenario_edit, name="scenario-edit"),
]
