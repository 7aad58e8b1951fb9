"""Drop the Grade table's plain index on run_id.

Django makes one for every ForeignKey, but the unique (run, item, question) constraint
starts with run_id and answers the same lookups, and the dashboard's covering index
(0006) also leads with it: the plain index was only upkeep on every grade written (the
COPY of a grading batch). The model still declares the foreign key with its default
db_index, so the index is dropped here without a state change: the migration
autodetector sees nothing to do, as for 0006's index.
"""

from django.db import migrations


def _plain_run_indexes(schema_editor, model):
    with schema_editor.connection.cursor() as cursor:
        constraints = schema_editor.connection.introspection.get_constraints(
            cursor, model._meta.db_table
        )
    return [
        name
        for name, info in constraints.items()
        if info["index"]
        and not info["unique"]
        and not info["primary_key"]
        and info["columns"] == ["run_id"]
    ]


def drop(apps, schema_editor):
    model = apps.get_model("trainer", "Grade")
    for name in _plain_run_indexes(schema_editor, model):
        schema_editor.execute(schema_editor._delete_index_sql(model, name))


def create(apps, schema_editor):
    model = apps.get_model("trainer", "Grade")
    if not _plain_run_indexes(schema_editor, model):
        field = model._meta.get_field("run")
        schema_editor.execute(schema_editor._create_index_sql(model, fields=[field]))


class Migration(migrations.Migration):
    dependencies = [("trainer", "0007_grading_run_summary")]

    operations = [migrations.RunPython(drop, create)]
