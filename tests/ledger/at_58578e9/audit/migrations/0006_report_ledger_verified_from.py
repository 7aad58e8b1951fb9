"""Unchanged since 58578e9: the app's own migration."""

from importlib import import_module

Migration = import_module("audit.migrations.0006_report_ledger_verified_from").Migration
