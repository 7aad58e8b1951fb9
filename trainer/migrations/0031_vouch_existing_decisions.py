"""The ledger vouches for each decision from now on: its digest goes in the
`decision.recorded` entry the answer appends. The decisions already in the table get theirs
here, from what their own `decision.recorded` entries recorded, not from the rows as they
stand: a decision changed before this migration is vouched for as recorded and named by the
next verification (trainer.services.decision_backfill; docs/security.md, "Records the
ledger vouches for"). One `vouched.backfilled` entry per sitting. Nothing to undo.
"""

from django.db import migrations


def vouch_existing(apps, schema_editor):
    from trainer.services.decision_backfill import decisions_vouch_backfill

    decisions_vouch_backfill(manager=apps.get_model("trainer", "Decision")._default_manager)


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0001_initial"),
        ("trainer", "0030_table_practical_required"),
    ]

    operations = [migrations.RunPython(vouch_existing, migrations.RunPython.noop)]
