from django.contrib import admin

from audit import models
from core.admin import ReadOnlyAdmin


@admin.register(models.Review)
class ReviewAdmin(ReadOnlyAdmin):
    list_display = ["id", "grade", "reviewer", "created_at"]


@admin.register(models.RetrainingFlag)
class RetrainingFlagAdmin(ReadOnlyAdmin):
    list_display = ["id", "trainee", "flagged_by", "active", "created_at"]


@admin.register(models.Certification)
class CertificationAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "trainee",
        "profile",
        "signer_full_name",
        "signed_at",
        "expires_at",
        "withdrawn",
    ]


@admin.register(models.ComplianceReport)
class ComplianceReportAdmin(ReadOnlyAdmin):
    list_display = ["id", "period_start", "period_end", "format", "status", "requested_by"]


@admin.register(models.Refresher)
class RefresherAdmin(ReadOnlyAdmin):
    list_display = ["trainee", "flag", "assignment", "created_by", "created_at"]
