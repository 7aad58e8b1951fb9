from django.contrib import admin

from core.admin import ReadOnlyAdmin
from ledger import models


@admin.register(models.LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ["sequence", "recorded_at", "event", "actor_name", "subject_type", "subject_id"]
    list_filter = ["event"]
