"""Reports anchor the ledger: a compliance report records the entry its head hash belongs
to; the reports made before this migration get it from the ledger as it stands now.

This migration also made the ledger's triggers (SQLite's, and PostgreSQL's refusal of
TRUNCATE and the head's moving forward only) while the ledger was part of audit: a database
migrated then keeps them, a database migrated since gets them from the ledger's own
migrations (ledger 0001: the ledger owns its schema).
"""

from django.db import migrations, models

GENESIS = "0" * 64


def position_past_reports(apps, schema_editor):
    # Reports made before this migration exist only where audit 0001 made the ledger's
    # table too; elsewhere there are none, and the ledger's table need not exist yet.
    ComplianceReport = apps.get_model("audit", "ComplianceReport")
    LedgerEntry = apps.get_model("audit", "LedgerEntry")
    reports = ComplianceReport.objects.filter(ledger_entries__isnull=True).exclude(
        ledger_head_hash=""
    )
    for report in reports.iterator():
        if report.ledger_head_hash == GENESIS:
            position = 0
        else:
            position = (
                LedgerEntry.objects.filter(hash=report.ledger_head_hash)
                .values_list("sequence", flat=True)
                .first()
            )
        if position is not None:
            ComplianceReport.objects.filter(pk=report.pk).update(ledger_entries=position)


class Migration(migrations.Migration):
    dependencies = [("audit", "0002_ledger_append_only")]

    operations = [
        migrations.AddField(
            model_name="compliancereport",
            name="ledger_entries",
            field=models.PositiveBigIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(position_past_reports, migrations.RunPython.noop),
    ]
