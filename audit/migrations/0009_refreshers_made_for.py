"""A refresher's drill is its trainee's own (issue #24): the refreshers made before the drill
knew whom it was made for get their trainee here, so they leave every other trainee's
"Practise any drill". Nothing to undo."""

from django.db import migrations


def refreshers_made_for(apps, schema_editor):
    Refresher = apps.get_model("audit", "Refresher")
    Drill = apps.get_model("trainer", "Drill")
    for drill_id, trainee_id in Refresher.objects.values_list(
        "assignment__drill_id", "trainee_id"
    ):
        Drill.objects.filter(pk=drill_id, made_for__isnull=True).update(made_for_id=trainee_id)


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0008_vouch_existing_records"),
        ("trainer", "0018_drill_made_for"),
    ]

    operations = [migrations.RunPython(refreshers_made_for, migrations.RunPython.noop)]
