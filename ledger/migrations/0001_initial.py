"""The ledger's entries and head: their tables, and the triggers that keep the ledger
append-only. The ledger owns its schema: nothing here needs an app above it.

The tables keep the names they had when the ledger was part of the audit app
(audit_ledgerentry, audit_ledgerhead), and the triggers theirs.

- The database refuses UPDATE and DELETE on the entries: PostgreSQL through a trigger,
  SQLite through triggers. PostgreSQL also refuses TRUNCATE, which no row trigger sees.
  A DBA can still lift them; that is what verify_audit_log is for.
- The head moves on every append, so it cannot be append-only: on both databases it may
  only move forward, to an entry of the ledger, and is never deleted. Whoever can drop
  the triggers can still set it back; verification's anchors are for that.
- A table that SQLite's schema editor rebuilds (an altered column) loses its triggers: a
  later migration that alters LedgerEntry or LedgerHead must create them again
  (tests/ledger/test_ledger.py checks that they exist).
- Test runs empty every table after a transactional test: tests/ledger_protection.py lifts
  these triggers for that flush.

Until the ledger owned its schema (issue #25), audit's migrations 0001-0003 made these
tables and triggers and this migration only took the two models over in Django's state.
A database migrated then has this migration applied already: nothing here runs on it again.
A database migrated before the ledger app existed has the tables audit's migrations made:
they are left as they are (with their rows), and the triggers are made again, the same
ones, in place of any audit's made. The content types move from audit to the ledger, so
permissions on the two models keep their rows.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

GENESIS = "0" * 64

SQLITE_TRIGGERS = {
    "audit_ledger_no_update": """
    CREATE TRIGGER audit_ledger_no_update BEFORE UPDATE ON audit_ledgerentry
    BEGIN SELECT RAISE(ABORT, 'the audit ledger is append-only: UPDATE refused'); END
    """,
    "audit_ledger_no_delete": """
    CREATE TRIGGER audit_ledger_no_delete BEFORE DELETE ON audit_ledgerentry
    BEGIN SELECT RAISE(ABORT, 'the audit ledger is append-only: DELETE refused'); END
    """,
    "audit_ledger_head_insert": f"""
    CREATE TRIGGER audit_ledger_head_insert BEFORE INSERT ON audit_ledgerhead
    WHEN NOT (NEW.sequence = 0 AND NEW.hash = '{GENESIS}')
        AND NOT EXISTS (SELECT 1 FROM audit_ledgerentry
                        WHERE sequence = NEW.sequence AND hash = NEW.hash)
    BEGIN SELECT RAISE(ABORT, 'the audit ledger head must name an entry of the ledger'); END
    """,
    "audit_ledger_head_forward_only": """
    CREATE TRIGGER audit_ledger_head_forward_only BEFORE UPDATE ON audit_ledgerhead
    WHEN NEW.id <> OLD.id
        OR NEW.sequence < OLD.sequence
        OR (NEW.sequence = OLD.sequence AND NEW.hash <> OLD.hash)
        OR (NEW.sequence > OLD.sequence
            AND NOT EXISTS (SELECT 1 FROM audit_ledgerentry
                            WHERE sequence = NEW.sequence AND hash = NEW.hash))
    BEGIN SELECT RAISE(ABORT,
        'the audit ledger head only moves forward, to an entry of the ledger'); END
    """,
    "audit_ledger_head_kept": """
    CREATE TRIGGER audit_ledger_head_kept BEFORE DELETE ON audit_ledgerhead
    BEGIN SELECT RAISE(ABORT, 'the audit ledger head is never deleted'); END
    """,
}

POSTGRESQL_FUNCTIONS = {
    "audit_ledger_refuse_change": """
    CREATE OR REPLACE FUNCTION audit_ledger_refuse_change() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION 'the audit ledger is append-only: % refused on entry %', TG_OP, OLD.sequence
            USING ERRCODE = 'insufficient_privilege';
    END;
    $$ LANGUAGE plpgsql
    """,
    "audit_ledger_refuse_truncate": """
    CREATE OR REPLACE FUNCTION audit_ledger_refuse_truncate() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION 'the audit ledger is append-only: TRUNCATE refused on %', TG_TABLE_NAME
            USING ERRCODE = 'insufficient_privilege';
    END;
    $$ LANGUAGE plpgsql
    """,
    "audit_ledger_head_forward_only": f"""
    CREATE OR REPLACE FUNCTION audit_ledger_head_forward_only() RETURNS trigger AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            RAISE EXCEPTION 'the audit ledger head is never deleted'
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF TG_OP = 'UPDATE' THEN
            IF NEW.id <> OLD.id OR NEW.sequence < OLD.sequence
                    OR (NEW.sequence = OLD.sequence AND NEW.hash <> OLD.hash) THEN
                RAISE EXCEPTION
                    'the audit ledger head only moves forward: entry % to entry % refused',
                    OLD.sequence, NEW.sequence
                    USING ERRCODE = 'insufficient_privilege';
            END IF;
            IF NEW.sequence = OLD.sequence THEN
                RETURN NEW;
            END IF;
        ELSIF NEW.sequence = 0 AND NEW.hash = '{GENESIS}' THEN
            RETURN NEW;
        END IF;
        IF NOT EXISTS (SELECT 1 FROM audit_ledgerentry
                       WHERE sequence = NEW.sequence AND hash = NEW.hash) THEN
            RAISE EXCEPTION 'the audit ledger head must name an entry of the ledger: %',
                NEW.sequence USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql
    """,
}

# (trigger, table): its CREATE statement.
POSTGRESQL_TRIGGERS = {
    ("audit_ledger_append_only", "audit_ledgerentry"): """
    CREATE TRIGGER audit_ledger_append_only
        BEFORE UPDATE OR DELETE ON audit_ledgerentry
        FOR EACH ROW EXECUTE FUNCTION audit_ledger_refuse_change()
    """,
    ("audit_ledger_no_truncate", "audit_ledgerentry"): """
    CREATE TRIGGER audit_ledger_no_truncate BEFORE TRUNCATE ON audit_ledgerentry
        FOR EACH STATEMENT EXECUTE FUNCTION audit_ledger_refuse_truncate()
    """,
    ("audit_ledger_head_no_truncate", "audit_ledgerhead"): """
    CREATE TRIGGER audit_ledger_head_no_truncate BEFORE TRUNCATE ON audit_ledgerhead
        FOR EACH STATEMENT EXECUTE FUNCTION audit_ledger_refuse_truncate()
    """,
    ("audit_ledger_head_forward_only", "audit_ledgerhead"): """
    CREATE TRIGGER audit_ledger_head_forward_only
        BEFORE INSERT OR UPDATE OR DELETE ON audit_ledgerhead
        FOR EACH ROW EXECUTE FUNCTION audit_ledger_head_forward_only()
    """,
}


def _run(schema_editor, statements):
    for statement in statements:
        schema_editor.execute(statement, params=None)


def _drops(vendor):
    if vendor == "sqlite":
        return [f"DROP TRIGGER IF EXISTS {name}" for name in SQLITE_TRIGGERS]
    if vendor == "postgresql":
        return [
            f"DROP TRIGGER IF EXISTS {name} ON {table}" for name, table in POSTGRESQL_TRIGGERS
        ]
    return []


def create_protection(apps, schema_editor):
    """The triggers, in place of any of the same names (audit's, on an old database)."""
    vendor = schema_editor.connection.vendor
    _run(schema_editor, _drops(vendor))
    if vendor == "sqlite":
        _run(schema_editor, SQLITE_TRIGGERS.values())
    elif vendor == "postgresql":
        _run(schema_editor, POSTGRESQL_FUNCTIONS.values())
        _run(schema_editor, POSTGRESQL_TRIGGERS.values())


def drop_protection(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    _run(schema_editor, _drops(vendor))
    if vendor == "postgresql":
        _run(schema_editor, [f"DROP FUNCTION IF EXISTS {name}()" for name in POSTGRESQL_FUNCTIONS])


class CreateModelUnlessMade(migrations.CreateModel):
    """CreateModel, but a table audit's migrations already made (on a database migrated
    before the ledger app existed) is left as it is, rows and all."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        table = to_state.apps.get_model(app_label, self.name)._meta.db_table
        with schema_editor.connection.cursor() as cursor:
            made = table in schema_editor.connection.introspection.table_names(cursor)
        if not made:
            super().database_forwards(app_label, schema_editor, from_state, to_state)


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
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        CreateModelUnlessMade(
            name="LedgerHead",
            fields=[
                (
                    "id",
                    models.PositiveSmallIntegerField(default=1, primary_key=True, serialize=False),
                ),
                ("sequence", models.PositiveBigIntegerField(default=0)),
                ("hash", models.CharField(max_length=64)),
            ],
            options={"db_table": "audit_ledgerhead"},
        ),
        CreateModelUnlessMade(
            name="LedgerEntry",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
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
        migrations.RunPython(create_protection, drop_protection),
        migrations.RunPython(content_types_to_ledger, content_types_to_audit),
    ]
