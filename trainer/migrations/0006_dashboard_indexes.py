"""A covering index for the pit's dashboard (PostgreSQL only).

Every dashboard figure reads a run's grades for five columns; with them in the index,
PostgreSQL answers from the index alone instead of visiting a million heap rows. SQLite
has no INCLUDE, and its small development databases need no help, so nothing is made
there. The models are unchanged: the index is invisible to Django's migration autodetector.
"""

from django.db import migrations

INDEX = "trainer_grade_run_dashboard_idx"


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(
        f"CREATE INDEX IF NOT EXISTS {INDEX} ON trainer_grade (run_id) "
        "INCLUDE (correct, response_ms, money_diff, category)"
    )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("trainer", "0005_grading_run_basis")]

    operations = [migrations.RunPython(create, drop)]
