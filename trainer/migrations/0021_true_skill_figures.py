"""True skill figures (#24): a question counts for a skill only where it exercises that
skill (trainer.skills) and only when it was shown; questions never shown are counted apart
as not reached. The summaries written before counted every question of a round, shown or
not, for each of the round's skills: they are written again here from the grades (the
grades, runs and ledger are untouched; a summary is figures derived from them, vouched for
by nothing). ``manage.py build_run_summaries --rebuild`` does the same later.

The rebuild itself runs in 0025 (the summaries' points, #25): it writes every column of
today's summary, which do not all exist yet here."""

from django.db import migrations, models


def rebuild(apps, schema_editor):
    # Done by 0026_run_summary_points, once every column a summary holds exists.
    return None


class Migration(migrations.Migration):
    dependencies = [
        ("trainer", "0020_rule_version_effective_from"),
    ]

    operations = [
        migrations.AddField(
            model_name="gradingrunsummary",
            name="not_reached",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(rebuild, migrations.RunPython.noop),
    ]
