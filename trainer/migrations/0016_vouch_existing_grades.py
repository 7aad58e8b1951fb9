"""The ledger vouches for grades, grading runs and attempts' results from now on (#23): their
digests go in the `grading_run.finished` entry that grading appends. The rows already in the
tables get theirs here, in one `vouched.backfilled` entry per grading run holding the
current digests of the run, its grades and its attempt: they are vouched for from this
moment on (docs/security.md, "Records the ledger vouches for"). Nothing to undo.
"""

from django.db import migrations


def vouch_existing(apps, schema_editor):
    from ledger.services.vouch_check import vouch_backfill
    # The specs of the day: the decisions are vouched for from 0031 on.
    from trainer.services.vouched import ATTEMPTS, GRADES, RUNS

    vouch_backfill(
        specs=[
            (spec, apps.get_model(spec.model._meta.label)._default_manager)
            for spec in (GRADES, RUNS, ATTEMPTS)
        ]
    )


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0001_initial"),
        ("trainer", "0015_drill_owner_and_join_requests"),
    ]

    operations = [migrations.RunPython(vouch_existing, migrations.RunPython.noop)]
