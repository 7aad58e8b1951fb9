"""Rule versions take effect from a date (issue #24, house rules in the product).

Every version recorded before this was a correction, replayed by a regrade over the ones
before it: each profile's versions all start when its first was recorded, so the newest is
in force, as it was.
"""

import django.utils.timezone
from django.db import migrations, models


def from_the_first(apps, schema_editor):
    version = apps.get_model("trainer", "RuleProfileVersion")
    first: dict[int, object] = {}
    for row in version.objects.order_by("profile_id", "version").only(
        "pk", "profile_id", "created_at"
    ):
        start = first.setdefault(row.profile_id, row.created_at)
        # A queryset update: the model refuses to save a recorded version.
        version.objects.filter(pk=row.pk).update(effective_from=start)


class Migration(migrations.Migration):
    dependencies = [("trainer", "0019_drill_kinds_in_words")]

    operations = [
        migrations.AddField(
            model_name="ruleprofileversion",
            name="effective_from",
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        migrations.RunPython(from_the_first, migrations.RunPython.noop),
    ]
