"""The ledger's entries and head, moved from the audit app: in Django's state only.

The tables stay as audit's migrations made them (audit_ledgerentry, audit_ledgerhead, with
the triggers of audit 0002 and 0003), so no data moves and nothing is dropped or created:
audit 0005 removes the two models from audit's state, this adds them to the ledger's. The
content types move with them, so permissions on them keep their rows.

A later migration that alters either table rebuilds it on SQLite, losing its triggers: it
must create them again (see audit 0003).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = ("ledgerentry", "ledgerhead")


def _move_content_types(apps, source, target):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MOVED:
        if not ContentType.objects.filter(app_label=target, model=model).exists():
            ContentType.objects.filter(app_label=source, model=model).update(app_label=target)


def content_types_to_ledger(apps, schema_editor):
    _move_content_types(apps, "audit", "ledger")


def content_types_to_audit(apps, schema_editor):
    _move_content_types(apps, "ledger", "audit")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        # The tables and their triggers are made by these.
        ("audit", "0003_ledger_anchors"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="LedgerHead",
                    fields=[
                        (
                            "id",
                            models.PositiveSmallIntegerField(
                                default=1, primary_key=True, serialize=False
                            ),
                        ),
                        ("sequence", models.PositiveBigIntegerField(default=0)),
                        ("hash", models.CharField(max_length=64)),
                    ],
                    options={"db_table": "audit_ledgerhead"},
                ),
                migrations.CreateModel(
                    name="LedgerEntry",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("sequence", models.PositiveBigIntegerField(unique=True)),
                        ("recorded_at", models.DateTimeField()),
                        ("event", models.CharField(max_length=64)),
                        ("actor_name", models.CharField(blank=True, max_length=150)),
                        ("subject_type", models.CharField(max_length=64)),
                        ("subject_id", models.CharField(max_length=64)),
                        ("payload", models.JSONField()),
                        ("previous_hash", models.CharField(max_length=64)),
                        ("hash", models.CharField(max_length=64, unique=True)),
                        (
                            "actor",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "audit_ledgerentry",
                        "verbose_name_plural": "ledger entries",
                        "ordering": ["sequence"],
                        "indexes": [
                            models.Index(
                                fields=["subject_type", "subject_id"],
                                name="audit_ledge_subject_5805e7_idx",
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_to_ledger, content_types_to_audit),
    ]
