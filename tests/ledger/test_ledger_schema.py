"""The ledger owns its schema (issue #25): its own migrations make its tables and the triggers
that keep it append-only, on a fresh database, without audit's. A database made when audit's
first migrations made them (main at 58578e9, or before the ledger app existed) upgrades to
today's migrations with its entries, its head and its triggers as they were.

Each test migrates a database of its own (fresh_database), of the run's kind: SQLite, or
PostgreSQL when DATABASE_URL names it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import DatabaseError, connection, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader

from ledger.chain import GENESIS_HASH
from ledger.events import Event, Subject
from ledger.models import LedgerEntry, LedgerHead
from ledger.services.append import ledger_append
from ledger.services.verify import ledger_verify

LEDGER_TABLES = ("audit_ledgerentry", "audit_ledgerhead")
# What the ledger's migrations may need besides their own: the user model its entries name,
# the content types its first migration moves, and the beat scheduler's table (ledger 0003
# renames the checkpoint task stored there). Never an app above the ledger.
LEDGER_NEEDS = {"ledger", "auth", "contenttypes", "django_celery_beat"}
PRODUCT_APPS = ("audit_", "teaching_", "trainer_", "core_")
PROTECTION = {
    "sqlite": {
        "audit_ledger_no_update",
        "audit_ledger_no_delete",
        "audit_ledger_head_insert",
        "audit_ledger_head_forward_only",
        "audit_ledger_head_kept",
    },
    "postgresql": {
        "audit_ledger_append_only",
        "audit_ledger_no_truncate",
        "audit_ledger_head_no_truncate",
        "audit_ledger_head_forward_only",
    },
}
AT_58578E9 = {
    "audit": "tests.ledger.at_58578e9.audit.migrations",
    "ledger": "tests.ledger.at_58578e9.ledger.migrations",
}


def _recreate(test: BaseDatabaseWrapper, name: str, *, create: bool) -> None:
    with test._nodb_cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
        if create:
            cursor.execute(f'CREATE DATABASE "{name}"')


@contextmanager
def fresh_database(folder: Path) -> Iterator[BaseDatabaseWrapper]:
    """An empty database of the run's kind, in the default one's place inside: the
    migrations' own queries (a RunPython's models) go to the default database."""
    test = connections["default"]
    config = copy.deepcopy(test.settings_dict)
    if test.vendor == "postgresql":
        config["NAME"] = f"{test.settings_dict['NAME']}_fresh"
        _recreate(test, config["NAME"], create=True)
    else:
        config["NAME"] = str(folder / "fresh.sqlite3")
    fresh = type(test)(config, alias="default")
    connections["default"] = fresh
    ContentType.objects.clear_cache()
    try:
        yield fresh
    finally:
        fresh.close()
        connections["default"] = test
        ContentType.objects.clear_cache()
        if test.vendor == "postgresql":
            _recreate(test, config["NAME"], create=False)


def ledger_leaves(loader: MigrationLoader) -> list[tuple[str, str]]:
    return [node for node in loader.graph.leaf_nodes() if node[0] == "ledger"]


def protection(database: BaseDatabaseWrapper) -> dict[str, str]:
    """The ledger's triggers, by name: their definition (and their function's, on PostgreSQL)."""
    with database.cursor() as cursor:
        if database.vendor == "postgresql":
            cursor.execute(
                "SELECT t.tgname, pg_get_triggerdef(t.oid) || ' ' || p.prosrc "
                "FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid "
                "WHERE NOT t.tgisinternal AND t.tgrelid::regclass::text IN (%s, %s)",
                list(LEDGER_TABLES),
            )
        else:
            cursor.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
                "AND tbl_name IN (%s, %s)",
                list(LEDGER_TABLES),
            )
        # Indenting aside: the migrations that made them indent the SQL as their code is.
        return {name: " ".join(sql.split()) for name, sql in cursor.fetchall()}


def layout(database: BaseDatabaseWrapper) -> dict[str, object]:
    """The ledger's tables as the database describes them: columns, indexes, constraints."""
    with database.cursor() as cursor:
        return {
            table: (
                database.introspection.get_table_description(cursor, table),
                database.introspection.get_constraints(cursor, table),
            )
            for table in LEDGER_TABLES
        }


def append(count: int) -> list[LedgerEntry]:
    return [
        ledger_append(
            event=Event.DECISION_RECORDED,
            subject_type=Subject.DECISION,
            subject_id=n,
            payload={"answer": {"action": "pay", "amount": f"{n}.50"}},
        )
        for n in range(1, count + 1)
    ]


def _refused(statement: str, params: list[str | int], says: str) -> None:
    with (
        pytest.raises(DatabaseError, match=says),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(statement, params)


def assert_append_only(entries: list[LedgerEntry]) -> None:
    """The database itself refuses to change or remove an entry, or to set the head back."""
    first = entries[0].sequence
    _refused(
        "UPDATE audit_ledgerentry SET event = %s WHERE sequence = %s",
        ["forged", first],
        "append-only: UPDATE refused",
    )
    _refused("DELETE FROM audit_ledgerentry WHERE sequence = %s", [first], "append-only: DELETE")
    _refused("UPDATE audit_ledgerhead SET sequence = 0, hash = %s", [GENESIS_HASH], "ledger head")
    _refused("DELETE FROM audit_ledgerhead", [], "ledger head")
    if connection.vendor == "postgresql":
        for table in LEDGER_TABLES:
            _refused(f"TRUNCATE {table} CASCADE", [], "TRUNCATE refused")
    assert [e.hash for e in LedgerEntry.objects.all()] == [e.hash for e in entries]


def assert_ledger_kept(entries: list[LedgerEntry], head: tuple[int, str]) -> None:
    assert [e.hash for e in LedgerEntry.objects.all()] == [e.hash for e in entries]
    assert LedgerHead.objects.values_list("sequence", "hash").get() == head
    assert ledger_verify(full=True).ok
    assert_append_only(entries)
    # The upgraded ledger goes on: the next entry extends the same chain.
    assert append(1)[0].previous_hash == head[1]
    assert ledger_verify(full=True).ok


def test_no_ledger_migration_depends_on_an_audit_migration():
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    upward = [
        f"{child[0]}.{child[1]} -> {parent[0]}.{parent[1]}"
        for child, node in graph.node_map.items()
        if child[0] == "ledger"
        for parent in node.parents
        if parent[0] not in LEDGER_NEEDS
    ]
    assert not upward, f"the ledger's migrations depend on apps above it: {upward}"


def test_migrating_the_ledger_needs_no_app_above_it():
    loader = MigrationLoader(None, ignore_no_migrations=True)
    needed = {app for leaf in ledger_leaves(loader) for app, _ in loader.graph.forwards_plan(leaf)}
    assert needed <= LEDGER_NEEDS, f"migrating the ledger migrates {needed - LEDGER_NEEDS} too"


@pytest.mark.django_db
def test_a_fresh_database_migrated_to_the_ledger_alone_has_its_tables_and_triggers(tmp_path):
    made_today, tables_today = protection(connection), layout(connection)
    assert set(made_today) == PROTECTION[connection.vendor]
    with fresh_database(tmp_path) as fresh:
        executor = MigrationExecutor(fresh)
        executor.migrate(ledger_leaves(executor.loader))
        tables = set(fresh.introspection.table_names())
        assert {*LEDGER_TABLES, "ledger_checkpointtally"} <= tables
        assert {t for t in tables if t.startswith(PRODUCT_APPS)} == set(LEDGER_TABLES)
        assert protection(fresh) == made_today
        assert layout(fresh) == tables_today
        entries = append(3)
        assert_append_only(entries)
        head = LedgerHead.objects.values_list("sequence", "hash").get()

        # The rest of the product migrates on top, leaving the ledger as it is.
        executor = MigrationExecutor(fresh)
        executor.migrate(executor.loader.graph.leaf_nodes())
        assert "audit_compliancereport" in fresh.introspection.table_names()
        assert protection(fresh) == made_today
        assert_ledger_kept(entries, head)

        # Audit unapplied takes its own tables away, never the ledger's.
        executor = MigrationExecutor(fresh)
        executor.migrate([("audit", None)])
        tables = set(fresh.introspection.table_names())
        assert "audit_compliancereport" not in tables
        assert set(LEDGER_TABLES) <= tables
        assert protection(fresh) == made_today
        assert LedgerEntry.objects.count() == len(entries) + 1


@pytest.mark.django_db
def test_a_database_made_at_58578e9_upgrades_with_its_ledger_as_it_was(tmp_path, settings):
    made_today, tables_today = protection(connection), layout(connection)
    with fresh_database(tmp_path) as database:
        settings.MIGRATION_MODULES = AT_58578E9
        then = MigrationExecutor(database)
        then.migrate(then.loader.graph.leaf_nodes())
        # What audit's migrations made then is what the ledger's make today.
        assert protection(database) == made_today
        assert layout(database) == tables_today
        entries = append(3)
        head = LedgerHead.objects.values_list("sequence", "hash").get()

        settings.MIGRATION_MODULES = {}
        now = MigrationExecutor(database)
        now.loader.check_consistent_history(database)
        # Every migration of then is already applied by name: the upgrade runs only audit's
        # made since 58578e9 (its last was 0010), none of which touches the ledger.
        planned = [
            (m.app_label, m.name) for m, _ in now.migration_plan(now.loader.graph.leaf_nodes())
        ]
        assert all(app == "audit" and name > "0010" for app, name in planned), planned
        call_command("migrate", interactive=False, verbosity=0)
        assert protection(database) == made_today
        assert layout(database) == tables_today
        assert_ledger_kept(entries, head)


@pytest.mark.django_db
@pytest.mark.parametrize("last", ["0001_initial", "0004_certification_rules"])
def test_a_database_made_before_the_ledger_app_upgrades_with_its_ledger_as_it_was(
    tmp_path, settings, last
):
    """Migrated when the ledger was audit's: audit's migrations had made its tables (and,
    from audit 0002 on, its triggers), no ledger migration had run."""
    made_today, tables_today = protection(connection), layout(connection)
    with fresh_database(tmp_path) as database:
        settings.MIGRATION_MODULES = AT_58578E9
        MigrationExecutor(database).migrate([("audit", last)])
        with database.cursor() as cursor:
            assert set(LEDGER_TABLES) <= set(database.introspection.table_names(cursor))
        entries = append(3)
        head = LedgerHead.objects.values_list("sequence", "hash").get()
        old_type = ContentType.objects.create(app_label="audit", model="ledgerentry")

        settings.MIGRATION_MODULES = {}
        call_command("migrate", interactive=False, verbosity=0)
        assert protection(database) == made_today
        assert layout(database) == tables_today
        assert ContentType.objects.get_for_model(LedgerEntry).pk == old_type.pk
        assert_ledger_kept(entries, head)
