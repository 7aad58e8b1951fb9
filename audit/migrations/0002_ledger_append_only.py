"""Nothing now: the ledger's append-only trigger on PostgreSQL is the ledger's own (ledger 0001).

This migration made it while the ledger was part of audit; a database migrated then keeps it,
a database migrated since gets it from the ledger's migrations (the ledger owns its schema).
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("audit", "0001_initial")]

    operations = []
