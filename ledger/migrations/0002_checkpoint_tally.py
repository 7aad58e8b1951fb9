"""The database's count of the lines written to the checkpoint file (#23): with each line's own
number, an emptied, shrunk or missing file is noticed. It starts from the lines the file
holds now (blank lines aside), so an installation's existing file is counted from here on.
"""

from pathlib import Path

from django.conf import settings
from django.db import migrations, models


def count_existing(apps, schema_editor):
    path = Path(settings.SHOESCHOOL_LEDGER_ANCHOR_FILE)
    if not path.is_file():
        return
    with path.open(encoding="utf-8", errors="replace") as lines:
        held = sum(1 for line in lines if line.strip() and not line.strip().startswith("#"))
    if held:
        apps.get_model("ledger", "CheckpointTally").objects.update_or_create(
            id=1, defaults={"lines": held}
        )


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="CheckpointTally",
            fields=[
                (
                    "id",
                    models.PositiveSmallIntegerField(default=1, primary_key=True, serialize=False),
                ),
                ("lines", models.PositiveBigIntegerField(default=0)),
            ],
            options={"db_table": "ledger_checkpointtally"},
        ),
        migrations.RunPython(count_existing, migrations.RunPython.noop),
    ]
