"""The ledger's checkpoint task is registered as ledger.tasks.checkpoint_ledger (it was
audit.tasks.checkpoint_ledger): a scheduler's stored periodic task is renamed with it, so the
database scheduler keeps running it. Reversible."""

from django.db import migrations

OLD = "audit.tasks.checkpoint_ledger"
NEW = "ledger.tasks.checkpoint_ledger"


def _rename(apps, old, new):
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    PeriodicTask.objects.filter(task=old).update(task=new)


def forwards(apps, schema_editor):
    _rename(apps, OLD, NEW)


def backwards(apps, schema_editor):
    _rename(apps, NEW, OLD)


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0002_checkpoint_tally"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(forwards, backwards, elidable=True)]
