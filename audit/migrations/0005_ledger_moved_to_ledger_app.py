"""The ledger's entries and head now belong to the ledger app: removed from audit's state only.

Their tables (audit_ledgerentry, audit_ledgerhead), rows and triggers are the ledger's, made
by ledger 0001 (or, on a database migrated while the ledger was part of audit, by audit
0001-0003, and kept): audit never made nor drops them now.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0004_certification_rules"),
        ("ledger", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="LedgerEntry"),
                migrations.DeleteModel(name="LedgerHead"),
            ],
            database_operations=[],
        ),
    ]
