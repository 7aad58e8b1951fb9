"""PostgreSQL refuses UPDATE and DELETE on the ledger, whoever asks.

A DBA can still disable the trigger; that is what verify_audit_log is for.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION audit_ledger_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the audit ledger is append-only: % refused on entry %', TG_OP, OLD.sequence
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER audit_ledger_append_only
    BEFORE UPDATE OR DELETE ON audit_ledgerentry
    FOR EACH ROW EXECUTE FUNCTION audit_ledger_refuse_change();
"""

DROP = """
DROP TRIGGER IF EXISTS audit_ledger_append_only ON audit_ledgerentry;
DROP FUNCTION IF EXISTS audit_ledger_refuse_change();
"""


def create_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("audit", "0001_initial")]

    operations = [migrations.RunPython(create_trigger, drop_trigger)]
