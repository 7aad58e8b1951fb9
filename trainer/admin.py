"""The admin: administrators read the records here (classes, rule profiles, scenarios,
drills, attempts, grades) and may regrade attempts.

Records (decisions, grades, profile versions) are shown read-only: the admin has no path
to change or delete them. Rule profiles change on the house-rules pages (/house-rules/).
"""

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from core.admin import ReadOnlyAdmin
from core.errors import ProductError
from core.roles import Role, has_role
from trainer import models
from trainer.services.grading.request import regrade_request


class RuleProfileVersionInline(admin.TabularInline):
    model = models.RuleProfileVersion
    fields = ["version", "effective_from", "source", "notes", "created_at", "created_by"]
    readonly_fields = ["version", "effective_from", "source", "notes", "created_at", "created_by"]
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(models.RuleProfile)
class RuleProfileAdmin(ReadOnlyAdmin):
    """Shown only: a table's rules change from a date, and a new table is opened from a
    copy of one, on the house-rules pages (/house-rules/) and the API, whose services check
    the rules and record them; a table's slug is fixed once it has rules (issue #24)."""

    list_display = ["name", "title", "created_at"]
    search_fields = ["name", "title"]
    inlines = [RuleProfileVersionInline]


@admin.register(models.RuleProfileVersion)
class RuleProfileVersionAdmin(ReadOnlyAdmin):
    list_display = ["profile", "version", "effective_from", "source", "created_at", "created_by"]
    list_filter = ["profile"]


@admin.register(models.TrainingClass)
class TrainingClassAdmin(ReadOnlyAdmin):
    """Shown only: classes and rosters change in the workspace (/teach/classes/) and the
    API, whose services check who may and write the ledger."""

    list_display = ["name", "created_at"]
    filter_horizontal = ["instructors", "trainees"]
    search_fields = ["name"]


@admin.register(models.Scenario)
class ScenarioAdmin(ReadOnlyAdmin):
    """Shown only: a scenario is authored and revised in the workspace (/teach/scenarios/),
    the API or the import command, through the services that validate it and record it."""

    list_display = ["slug", "title", "profile_version", "difficulty", "revision", "is_active"]
    list_filter = ["profile_version__profile", "difficulty", "is_active"]
    search_fields = ["slug", "title"]


class DrillScenarioInline(admin.TabularInline):
    model = models.DrillScenario
    extra = 0
    fields = ["position", "scenario"]
    readonly_fields = ["position", "scenario"]
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(models.Drill)
class DrillAdmin(ReadOnlyAdmin):
    """Shown only: drills are built and retired in the workspace (/teach/drills/) or the
    API, through the services that check them and record them in the ledger."""

    list_display = ["title", "kind", "profile_version", "count", "pass_mark", "is_active"]
    list_filter = ["kind", "is_active"]
    search_fields = ["title"]
    inlines = [DrillScenarioInline]


@admin.register(models.Assignment)
class AssignmentAdmin(ReadOnlyAdmin):
    """Read only: assigning goes through teaching.services.assignments (the workspace and the
    API), which records the acting user as the assigner and writes the ledger."""

    list_display = [
        "drill",
        "mode",
        "trainee",
        "training_class",
        "due_at",
        "assigned_by",
        "cancelled_at",
    ]
    list_filter = ["mode"]


@admin.register(models.Attempt)
class AttemptAdmin(ReadOnlyAdmin):
    list_display = ["id", "trainee", "drill", "mode", "status", "grading_status", "score", "passed"]
    list_filter = ["mode", "status", "grading_status"]
    search_fields = ["trainee__username"]
    actions = ["regrade"]

    @admin.action(description="Regrade selected attempts", permissions=["regrade"])
    def regrade(self, request: HttpRequest, queryset: QuerySet[models.Attempt]) -> None:
        """A new grading run for each submitted attempt selected; the others are left alone."""
        submitted = list(queryset.filter(status=models.AttemptStatus.SUBMITTED))
        skipped = queryset.count() - len(submitted)
        if submitted:
            try:
                runs = regrade_request(
                    attempts=submitted,
                    reason=f"regrade requested in the admin by {request.user}",
                    requested_by=request.user,  # type: ignore[arg-type]
                )
            except ProductError as exc:
                self.message_user(request, exc.message, messages.ERROR)
                return
            self.message_user(request, f"Queued {len(runs)} regrade run(s).", messages.SUCCESS)
        if skipped:
            self.message_user(
                request, f"{skipped} attempt(s) not submitted: not regraded.", messages.WARNING
            )

    def has_regrade_permission(self, request: HttpRequest) -> bool:
        return has_role(request.user, Role.ADMIN)


@admin.register(models.Decision)
class DecisionAdmin(ReadOnlyAdmin):
    list_display = ["id", "item", "question", "kind", "response_ms", "answered_at"]


@admin.register(models.GradingRun)
class GradingRunAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "attempt",
        "number",
        "trigger",
        "status",
        "score",
        "passed",
        "finished_at",
    ]
    list_filter = ["status", "trigger"]


@admin.register(models.Grade)
class GradeAdmin(ReadOnlyAdmin):
    list_display = ["id", "run", "item", "question", "kind", "correct", "category", "money_diff"]
    list_filter = ["correct", "category"]
