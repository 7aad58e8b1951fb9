"""The audit and ledger migrations as they were on main at 58578e9, before the ledger owned
its schema: audit 0001-0003 made the ledger's tables and triggers and ledger 0001 only took
the models over in Django's state. tests/ledger/test_ledger_schema.py migrates a database
with them (MIGRATION_MODULES) to play an installation made then, and upgrades it.

The migrations changed since are copied as they were; the others are the apps' own.
"""
