"""The ledger vouches for certifications, retraining flags, refreshers and reviews from now
on (#23): each service puts the row's digest in the ledger entry it appends. The rows
already in the tables get theirs here, in one `vouched.backfilled` entry per subject (a
certification, a trainee, a grade) holding their current digests: they are vouched for from
this moment on (docs/security.md, "Records the ledger vouches for"). Nothing to undo.
"""

from django.db import migrations


def vouch_existing(apps, schema_editor):
    from audit.services.vouched import SPECS
    from ledger.services.vouch_check import vouch_backfill

    # The tables vouched for when this migration was written (a later spec's model may
    # not exist yet at this point of the migrations).
    tables = {"Certification", "RetrainingFlag", "Refresher", "Review"}
    vouch_backfill(
        specs=[
            (spec, apps.get_model(spec.model._meta.label)._default_manager)
            for spec in SPECS
            if spec.model.__name__ in tables
        ]
    )


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0007_refreshers"),
        ("trainer", "0016_vouch_existing_grades"),
    ]

    operations = [migrations.RunPython(vouch_existing, migrations.RunPython.noop)]
