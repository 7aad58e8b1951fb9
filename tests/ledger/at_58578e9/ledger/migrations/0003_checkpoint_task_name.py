"""Unchanged since 58578e9: the app's own migration."""

from importlib import import_module

Migration = import_module("ledger.migrations.0003_checkpoint_task_name").Migration
