"""The house-rules pages (issue #24), for administrators: every table and its versions; a
table's versions and card; a new version of its rules from a date, previewed (the card, the
placard and what changes) before it is saved; a new table from a copy of one. Writes go
through trainer.services.house_rules, which checks the role again and records the ledger."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from core import pages
from core.access import role_required
from core.errors import ProductError
from trainer.models import RuleProfile, RuleProfileVersion
from trainer.selectors import house_rules as selectors
from trainer.services import house_rules as services
from trainer.web.house_rules.forms import ChangeForm, CopyForm, grouped, posted_values

administrator = role_required(*pages.HOUSE_RULES.roles, refusal=pages.HOUSE_RULES.refusal)


def _actor(request: HttpRequest) -> AbstractBaseUser:
    user: AbstractBaseUser = request.user  # type: ignore[assignment]
    return user


def _error_at_field(form: ChangeForm | CopyForm, error: ProductError) -> None:
    form.add_error(error.field if error.field in form.fields else None, error.message)


@require_GET
@administrator
def index(request: HttpRequest) -> HttpResponse:
    return render(
        request, "trainer/house_rules/index.html", {"tables": selectors.house_rule_tables()}
    )


PRACTICAL_CHOICES = {"follow": None, "on": True, "off": False}


def _table_page(
    request: HttpRequest, name: str, *, error: str = "", status: int = 200
) -> HttpResponse:
    row = selectors.house_rule_table(name=name)
    return render(
        request,
        "trainer/house_rules/table.html",
        {
            "table": row,
            "practical_setting": {None: "follow", True: "on", False: "off"}[
                row.profile.practical_required
            ],
            "practical_error": error,
        },
        status=status,
    )


@require_GET
@administrator
def table(request: HttpRequest, name: str) -> HttpResponse:
    return _table_page(request, name)


@require_http_methods(["POST"])
@administrator
def practical(request: HttpRequest, name: str) -> HttpResponse:
    """Whether the table's certifications need a passed practical sheet (issue #28)."""
    profile = selectors.profile_get(name=name)
    chosen = request.POST.get("practical_required", "")
    try:
        services.table_practical_set(
            profile=profile,
            required=PRACTICAL_CHOICES.get(chosen, "unknown"),  # type: ignore[arg-type]
            actor=_actor(request),
        )
    except ProductError as error:
        return _table_page(request, name, error=error.message, status=error.status)
    messages.success(request, "The practical test setting is saved.")
    return redirect("house_rules:table", name=profile.name)


def _preview(profile: RuleProfile, version: RuleProfileVersion) -> dict[str, Any]:
    before = profile.newest_version
    return {
        "version": version,
        "changes": selectors.rules_changes(
            before.parameters if before else None, version.parameters, game=profile.game
        ),
        "before": before,
        "before_label": f"Version {before.version}" if before else "Before",
        "after_label": f"Version {version.version}",
    }


@require_http_methods(["GET", "POST"])
@administrator
def change(request: HttpRequest, name: str) -> HttpResponse:
    profile = selectors.profile_get(name=name)
    newest = profile.newest_version
    initial: dict[str, Any] = posted_values(newest.parameters if newest else {}, game=profile.game)
    # Tomorrow, or the day of a change already scheduled (a new one cannot come before it).
    tomorrow = timezone.localdate() + dt.timedelta(days=1)
    scheduled = timezone.localdate(newest.effective_from) if newest else tomorrow
    initial["effective_on"] = max(tomorrow, scheduled)
    initial["based_on"] = newest.version if newest else None
    form = ChangeForm(request.POST or None, initial=initial, game=profile.game)
    preview = None
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            wants_preview = "preview" in request.POST
            notes = form.cleaned_data["notes"]
            try:
                version = services.house_rules_change(
                    actor=_actor(request),
                    profile=profile,
                    parameters=form.parameters(),
                    effective_on=form.cleaned_data["effective_on"],
                    notes=notes,
                    dry_run=wants_preview,
                    based_on=form.cleaned_data.get("based_on"),
                )
            except ProductError as error:
                _error_at_field(form, error)
            else:
                if wants_preview:
                    preview = _preview(profile, version)
                    status = 200
                else:
                    when = timezone.localtime(version.effective_from)
                    messages.success(
                        request,
                        f"Version {version.version} of {profile.title or profile.name} saved: "
                        f"in force from {when:%d %B %Y}.",
                    )
                    return redirect("house_rules:table", name=profile.name)
    context = {
        "profile": profile,
        "form": form,
        "groups": grouped(form),
        "preview": preview,
        "newest": newest,
    }
    return render(request, "trainer/house_rules/change.html", context, status=status)


@require_http_methods(["GET", "POST"])
@administrator
def copy(request: HttpRequest, name: str) -> HttpResponse:
    source = selectors.profile_get(name=name)
    copied = source.current_version or source.newest_version
    initial = posted_values(copied.parameters if copied else {}, game=source.game)
    form = CopyForm(request.POST or None, initial=initial, game=source.game)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                created = services.table_copy_create(
                    actor=_actor(request),
                    source=source,
                    name=form.cleaned_data["name"],
                    title=form.cleaned_data["title"],
                    parameters=form.parameters(),
                    notes=form.cleaned_data["notes"],
                )
            except ProductError as error:
                _error_at_field(form, error)
            else:
                messages.success(request, f"Table {created.title} opened.")
                return redirect("house_rules:table", name=created.name)
    context = {"source": source, "form": form, "groups": grouped(form), "copied": copied}
    return render(request, "trainer/house_rules/copy.html", context, status=status)
