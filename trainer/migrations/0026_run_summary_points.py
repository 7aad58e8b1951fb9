"""Points beside the money (#25): a run's summary totals the points its grades lost in a game
counting points (`points`, NULL where none counted points), and every summary is written
again from the grades so the runs graded before have theirs (the grades, runs and ledger
are untouched; a summary is figures derived from them, vouched for by nothing). This
rebuild is also 0021's: it runs here, once every column a summary reads and holds exists.
``manage.py build_run_summaries --rebuild`` does the same later."""

from django.db import migrations, models


def rebuild(apps, schema_editor):
    from trainer.services.run_summaries import run_summaries_rebuild

    run_summaries_rebuild()


class Migration(migrations.Migration):
    dependencies = [
        ("trainer", "0025_join_requests_and_notifications_to_teaching"),
    ]

    operations = [
        migrations.AddField(
            model_name="gradingrunsummary",
            name="points",
            field=models.DecimalField(blank=True, decimal_places=2, max_digits=14, null=True),
        ),
        migrations.RunPython(rebuild, migrations.RunPython.noop),
    ]
