"""The ledger's start-up check: in production, the checkpoint file out of the insider's reach.

The checkpoint file is the ledger's copy of its head outside the database. In the data
folder, the media folder or beside the SQLite database it is within reach of whoever
rewrites the database (the same machine, the same backups, the same account), who can
empty it too. Production (SHOESCHOOL_LEDGER_ANCHOR_STRICT) refuses to start so: an Error
that `manage.py check --deploy`, `migrate` and the web process's start show
(docs/operations.md says where to put the file).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core import checks

TAG = "ledger"


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _reachable_folders() -> list[tuple[Path, str]]:
    folders: list[tuple[Path, str]] = []
    data = getattr(settings, "DATA_DIR", None)
    if data:
        folders.append((Path(data), "the data folder (SHOESCHOOL_DATA_DIR)"))
    folders.append((Path(settings.BASE_DIR) / "var", "the application's var folder"))
    if getattr(settings, "MEDIA_ROOT", None):
        folders.append((Path(settings.MEDIA_ROOT), "the media folder (MEDIA_ROOT)"))
    for alias, database in settings.DATABASES.items():
        if "sqlite" in str(database.get("ENGINE", "")) and str(database.get("NAME", "")):
            name = str(database["NAME"])
            if name != ":memory:" and not name.startswith("file:"):
                folders.append((Path(name).parent, f"the folder of the SQLite database ({alias})"))
    return folders


def anchor_file_placement(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """ledger.E001 in production for a checkpoint file the database's insider reaches."""
    if not getattr(settings, "SHOESCHOOL_LEDGER_ANCHOR_STRICT", False):
        return []
    path = Path(settings.SHOESCHOOL_LEDGER_ANCHOR_FILE).resolve()
    for folder, name in _reachable_folders():
        if _inside(path, folder.resolve()):
            return [
                checks.Error(
                    f"the ledger's checkpoint file {path} is in {name}: whoever can rewrite "
                    "the database reaches it there and can empty it with the ledger",
                    hint=(
                        "set SHOESCHOOL_LEDGER_ANCHOR_FILE to a path on another host or on "
                        "storage the database's administrators cannot rewrite (an append-only "
                        "or WORM mount, object storage with versioning): docs/operations.md"
                    ),
                    id="ledger.E001",
                )
            ]
    return []
