"""Unchanged since 58578e9: the app's own migration."""

from importlib import import_module

Migration = import_module("ledger.migrations.0002_checkpoint_tally").Migration
