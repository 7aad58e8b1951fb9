"""Teaching's rows in the Django admin, shown only (core.admin.ReadOnlyAdmin): they change
through teaching's services, which check who may and write the ledger."""

from django.contrib import admin

from core.admin import ReadOnlyAdmin
from teaching import models


@admin.register(models.ClassJoinRequest)
class ClassJoinRequestAdmin(ReadOnlyAdmin):
    """Shown only: a join request is made and answered in the workspace and the API, whose
    services check who may (the trainee's instructor) and write the ledger."""

    list_display = ["training_class", "trainee", "requested_by", "requested_at", "status"]
    list_filter = ["status"]


@admin.register(models.Notification)
class NotificationAdmin(ReadOnlyAdmin):
    list_display = ["kind", "recipient", "subject", "sent_at"]
    list_filter = ["kind"]
