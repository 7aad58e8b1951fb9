"""The secrets scripts/serve-network runs with, kept in the data folder (standard library only).

On first run it writes a random SECRET_KEY and a different random ledger-anchor key, each in
its own file readable by this user only (0600); later runs read them back. A file that
others may read, or that is too short to be a secret, is refused: the site's sessions,
password-reset links and the ledger's checkpoint lines are only as private as these.

    python3 scripts/network_secrets.py DATA_DIR   # prints the two files' paths
"""

from __future__ import annotations

import os
import secrets
import stat
import sys
from pathlib import Path

FILES = {"SECRET_KEY": "secret-key", "SHOESCHOOL_LEDGER_ANCHOR_KEY": "ledger-anchor-key"}
MIN_LENGTH = {"SECRET_KEY": 50, "SHOESCHOOL_LEDGER_ANCHOR_KEY": 32}


class SecretError(Exception):
    pass


def ensure_secret(path: Path, *, min_length: int) -> str:
    """The secret in ``path``, made (0600, 64 random URL-safe characters or more) if absent."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        value = secrets.token_urlsafe(64)
        # Created with its final permissions: never readable by others, not even briefly.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(value + "\n")
        return value
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        raise SecretError(
            f"{path} may be read by others (permissions {mode:o}): run chmod 600 {path}"
        )
    value = path.read_text().strip()
    if len(value) < min_length:
        raise SecretError(f"{path} holds fewer than {min_length} characters: not a secret")
    return value


def ensure_all(data_dir: Path) -> dict[str, Path]:
    """Both secrets, made if absent, never equal; their files by setting name."""
    paths = {name: data_dir / filename for name, filename in FILES.items()}
    values = {
        name: ensure_secret(path, min_length=MIN_LENGTH[name]) for name, path in paths.items()
    }
    if values["SECRET_KEY"] == values["SHOESCHOOL_LEDGER_ANCHOR_KEY"]:
        raise SecretError(f"{paths['SECRET_KEY']} and the ledger-anchor key must differ")
    return paths


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: network_secrets.py DATA_DIR", file=sys.stderr)
        return 2
    try:
        paths = ensure_all(Path(argv[1]))
    except SecretError as error:
        print(f"serve-network: {error}", file=sys.stderr)
        return 1
    for name, path in paths.items():
        print(f"{name}={path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
