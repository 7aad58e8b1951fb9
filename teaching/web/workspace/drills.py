"""The drill builder at /teach/drills/: the drills in use, and making one from the library,
from a generator recipe, or as a table's certification exam; retiring one."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core import pages
from core.access import role_required
from core.errors import ProductError
from core.roles import Role, has_role
from teaching.selectors import drills as sel
from teaching.web.workspace.drill_forms import (
    GeneratedDrillForm,
    LibraryDrillForm,
    LibraryFilterForm,
    picked_order,
    place_error,
)
from trainer.games import game_named
from trainer.labels import skill_words
from trainer.models import DrillKind, DrillPurpose, RuleProfileVersion, Scenario
from trainer.services.drills import drill_create, drill_retire, table_test_create

workspace = role_required(*pages.WORKSPACE.roles, refusal=pages.WORKSPACE.refusal)


def skill_labels(skills: list[str]) -> list[str]:
    labels = skill_words()
    return [labels.get(s, s) for s in skills]


def round_preview(
    scenario: Scenario, *, version: RuleProfileVersion | None = None
) -> dict[str, Any]:
    """A round as the trainee meets it (the table's placard and house rules, the table at
    its first question, no answer), and its answer key in words for the author, shown apart
    and marked as such. `version`: the table it is dealt at (a saved scenario's own)."""
    document = scenario.document
    found = sel.round_preview(document, game=scenario.game)
    version = version or scenario.profile_version
    game = game_named(scenario.game)
    at = {"box": found.box, "hand": found.hand, "view": found.view}
    return {
        "scenario": scenario,
        "rules": sel.rules_shown(document, version) if version is not None else None,
        "table": game.table(at, None),
        "table_template": game.table_template,
        "key": [
            {
                "n": q["n"],
                "kind": game.kind_words(q["kind"]),
                "prompt": game.question_words(q, document, note=False),
                "expected": game.answer_words(q["expected"]),
            }
            for q in found.questions
        ],
    }


@require_GET
@workspace
def drill_list(request: HttpRequest) -> HttpResponse:
    return _list_page(request)


def _list_page(request: HttpRequest, *, status: int = 200) -> HttpResponse:
    """The drills and the tables' certification exams; a refused action shows it again."""
    drills = list(sel.drills_visible_to(user=request.user))
    admin = has_role(request.user, Role.ADMIN)
    rows = [
        {
            "drill": d,
            "kind": DrillKind(d.kind).label,
            "purpose": DrillPurpose(d.purpose).label,
            "profiles": sel.drill_profile_titles(d),
            # Its owner or an administrator retires it (the service says why not to others).
            "may_retire": admin or (d.owner_id is not None and d.owner_id == request.user.pk),
        }
        for d in drills
    ]
    # A table test is offered only for a table whose current rules have none yet.
    tables = [
        {"version": v, "title": v.profile.title or v.profile.name}
        for v in sel.table_tests_missing(sel.current_versions(), drills)
    ]
    context = {"rows": rows, "tables": tables}
    return render(request, "trainer/workspace/drills.html", context, status=status)


@require_http_methods(["GET", "POST"])
@workspace
def drill_new_library(request: HttpRequest) -> HttpResponse:
    filters = LibraryFilterForm(request.GET or None)
    profile = skill = None
    if filters.is_valid():
        profile = filters.cleaned_data["profile"]
        skill = filters.cleaned_data["skill"] or None
    library = sel.scenarios_for_managers(profile=profile, skill=skill)
    form = LibraryDrillForm(request.POST or None)
    picked = picked_order(request.POST) if request.method == "POST" else []
    chosen = sel.scenarios_by_ids(picked)
    previews = []
    scenarios_error: list[str] = []
    status = 200
    if request.method == "POST" and form.is_valid():
        if request.POST.get("action") == "preview":
            previews = [round_preview(s) for s in chosen]
        else:
            data = form.cleaned_data
            try:
                drill = drill_create(
                    title=data["title"],
                    description=data["description"],
                    kind=DrillKind.FIXED,
                    purpose=data["purpose"],
                    scenarios=chosen,
                    count=data["count"] or len(chosen),
                    time_limit_seconds=data["time_limit_seconds"],
                    time_box_seconds=data["time_box_seconds"],
                    pass_mark=data["pass_mark"],
                    user=request.user,  # type: ignore[arg-type]
                )
            except ProductError as error:
                if error.status in (403, 404):
                    raise
                if error.field == "scenarios":
                    scenarios_error = [error.message]
                else:
                    place_error(form, error)
                status = error.status
            else:
                messages.success(request, f"The drill '{drill.title}' is made: assign it below.")
                return redirect("teach:drill", drill_id=drill.pk)
    elif request.method == "POST":
        status = 400
    order = {scenario_id: n for n, scenario_id in enumerate(picked, start=1)}
    rows = [
        {
            "scenario": s,
            "skills": skill_labels(s.skills),
            "profile": s.profile_version.profile.title or s.profile_version.profile.name,
            "order": order.get(s.pk, ""),
        }
        for s in library
    ]
    context = {
        "filters": filters,
        "form": form,
        "rows": rows,
        "previews": previews,
        "scenarios_error": scenarios_error,
    }
    return render(request, "trainer/workspace/drill_library.html", context, status=status)


@require_http_methods(["GET", "POST"])
@workspace
def drill_new_generated(request: HttpRequest) -> HttpResponse:
    form = GeneratedDrillForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            version = data["profile"].current_version
            try:
                drill = drill_create(
                    title=data["title"],
                    description=data["description"],
                    kind=DrillKind.GENERATED,
                    purpose=DrillPurpose.PRACTICE,
                    profile_version=version,
                    skills=data["skills"],
                    count=data["count"],
                    min_stake=data["min_stake"],
                    max_stake=data["max_stake"],
                    max_boxes=data["max_boxes"],
                    time_limit_seconds=data["time_limit_seconds"],
                    time_box_seconds=data["time_box_seconds"],
                    pass_mark=data["pass_mark"],
                    user=request.user,  # type: ignore[arg-type]
                )
            except ProductError as error:
                if error.status in (403, 404):
                    raise
                place_error(form, error)
                status = error.status
            else:
                messages.success(request, f"The drill '{drill.title}' is made: assign it below.")
                return redirect("teach:drill", drill_id=drill.pk)
    return render(request, "trainer/workspace/drill_generated.html", {"form": form}, status=status)


@require_POST
@workspace
def drill_table_test(request: HttpRequest) -> HttpResponse:
    raw = request.POST.get("profile_version", "")
    version = (
        RuleProfileVersion.objects.select_related("profile").filter(pk=int(raw)).first()
        if raw.isdigit()
        else None
    )
    if version is None:
        messages.error(request, "Choose a table to make its table test for.")
        return _list_page(request, status=400)
    try:
        drill = table_test_create(profile_version=version, user=request.user)  # type: ignore[arg-type]
    except ProductError as error:
        if error.status in (403, 404):
            raise
        messages.error(request, error.message)
        return _list_page(request, status=error.status)
    messages.success(request, f"The table test '{drill.title}' is made: assign it below.")
    return redirect("teach:drill", drill_id=drill.pk)


@require_POST
@workspace
def drill_retire_view(request: HttpRequest, drill_id: int) -> HttpResponse:
    try:
        drill = sel.drill_get_for_viewer(drill_id=drill_id, user=request.user)
        drill_retire(drill=drill, user=request.user, reason=request.POST.get("reason", ""))  # type: ignore[arg-type]
    except ProductError as error:
        if error.status in (403, 404):
            raise
        messages.error(request, error.message)
        return _list_page(request, status=error.status)
    messages.success(request, f"The drill '{drill.title}' is retired.")
    return redirect("teach:drills")


urlpatterns = [
    path("drills/", drill_list, name="drills"),
    path("drills/new/library/", drill_new_library, name="drill-new-library"),
    path("drills/new/generated/", drill_new_generated, name="drill-new-generated"),
    path("drills/table-test/", drill_table_test, name="drill-table-test"),
    path("drills/<id:drill_id>/retire/", drill_retire_view, name="drill-retire"),
]
