"""The ledger is append-only on SQLite too, and its head only moves forward; reports anchor it.

- SQLite refuses UPDATE and DELETE on the ledger through triggers, as PostgreSQL has since
  0002. A table that SQLite's schema editor rebuilds (an altered column) loses its
  triggers: a later migration that alters LedgerEntry or LedgerHead must create them again
  (tests/ledger/test_ledger.py checks that they exist).
- PostgreSQL also refuses TRUNCATE, which no row trigger sees.
- The head moves on every append, so it cannot be append-only: on both databases it may
  only move forward, to an entry of the ledger, and is never deleted. Whoever can drop
  the triggers can still set it back; verification's anchors are for that.
- A compliance report records the entry its head hash belongs to; the reports made before
  this migration get it from the ledger as it stands now.

Test runs empty every table after a transactional test: tests/ledger_protection.py lifts
these triggers for that flush.
"""

from django.db import migrations, models

GENESIS = "0" * 64

SQLITE_CREATE = [
    """
    CREATE TRIGGER audit_ledger_no_update BEFORE UPDATE ON audit_ledgerentry
    BEGIN SELECT RAISE(ABORT, 'the audit ledger is append-only: UPDATE refused'); END
    """,
    """
    CREATE TRIGGER audit_ledger_no_delete BEFORE DELETE ON audit_ledgerentry
    BEGIN SELECT RAISE(ABORT, 'the audit ledger is append-only: DELETE refused'); END
    """,
    f"""
    CREATE TRIGGER audit_ledger_head_insert BEFORE INSERT ON audit_ledgerhead
    WHEN NOT (NEW.sequence = 0 AND NEW.hash = '{GENESIS}')
        AND NOT EXISTS (SELECT 1 FROM audit_ledgerentry
                        WHERE sequence = NEW.sequence AND hash = NEW.hash)
    BEGIN SELECT RAISE(ABORT, 'the audit ledger head must name an entry of the ledger'); END
    """,
    """
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
    """
    CREATE TRIGGER audit_ledger_head_kept BEFORE DELETE ON audit_ledgerhead
    BEGIN SELECT RAISE(ABORT, 'the audit ledger head is never deleted'); END
    """,
]
SQLITE_DROP = [
    f"DROP TRIGGER IF EXISTS {name}"
    for name in (
        "audit_ledger_no_update",
        "audit_ledger_no_delete",
        "audit_ledger_head_insert",
        "audit_ledger_head_forward_only",
        "audit_ledger_head_kept",
    )
]

POSTGRESQL_CREATE = [
    """
    CREATE OR REPLACE FUNCTION audit_ledger_refuse_truncate() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION 'the audit ledger is append-only: TRUNCATE refused on %', TG_TABLE_NAME
            USING ERRCODE = 'insufficient_privilege';
    END;
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER audit_ledger_no_truncate BEFORE TRUNCATE ON audit_ledgerentry
        FOR EACH STATEMENT EXECUTE FUNCTION audit_ledger_refuse_truncate()
    """,
    """
    CREATE TRIGGER audit_ledger_head_no_truncate BEFORE TRUNCATE ON audit_ledgerhead
        FOR EACH STATEMENT EXECUTE FUNCTION audit_ledger_refuse_truncate()
    """,
    f"""
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
    """
    CREATE TRIGGER audit_ledger_head_forward_only
        BEFORE INSERT OR UPDATE OR DELETE ON audit_ledgerhead
        FOR EACH ROW EXECUTE FUNCTION audit_ledger_head_forward_only()
    """,
]
POSTGRESQL_DROP = [
    "DROP TRIGGER IF EXISTS audit_ledger_head_forward_only ON audit_ledgerhead",
    "DROP FUNCTION IF EXISTS audit_ledger_head_forward_only()",
    "DROP TRIGGER IF EXISTS audit_ledger_head_no_truncate ON audit_ledgerhead",
    "DROP TRIGGER IF EXISTS audit_ledger_no_truncate ON audit_ledgerentry",
    "DROP FUNCTION IF EXISTS audit_ledger_refuse_truncate()",
]


def _run(schema_editor, statements):
    for statement in statements:
        schema_editor.execute(statement, params=None)


def create_protection(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        _run(schema_editor, SQLITE_CREATE)
    elif vendor == "postgresql":
        _run(schema_editor, POSTGRESQL_CREATE)


def drop_protection(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        _run(schema_editor, SQLITE_DROP)
    elif vendor == "postgresql":
        _run(schema_editor, POSTGRESQL_DROP)


def position_past_reports(apps, schema_editor):
    ComplianceReport = apps.get_model("audit", "ComplianceReport")
    LedgerEntry = apps.get_model("audit", "LedgerEntry")
    reports = ComplianceReport.objects.filter(ledger_entries__isnull=True).exclude(
        ledger_head_hash=""
    )
    for report in reports.iterator():
        if report.ledger_head_hash == GENESIS:
            position = 0
        else:
            position = (
                LedgerEntry.objects.filter(hash=report.ledger_head_hash)
                .values_list("sequence", flat=True)
                .first()
            )
        if position is not None:
            ComplianceReport.objects.filter(pk=report.pk).update(ledger_entries=position)


class Migration(migrations.Migration):
    dependencies = [("audit", "0002_ledger_append_only")]

    operations = [
        migrations.AddField(
            model_name="compliancereport",
            name="ledger_entries",
            field=models.PositiveBigIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(position_past_reports, migrations.RunPython.noop),
        migrations.RunPython(create_protection, drop_protection),
    ]
