"""The ledger's entries and head now belong to the ledger app: removed from audit's state only.

Their tables (audit_ledgerentry, audit_ledgerhead), rows and triggers stay; ledger 0001 adds
the models to the ledger app's state over the same tables.
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
