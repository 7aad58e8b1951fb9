"""The environment reader and the paths every settings module needs."""

from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
# Lets "\$" stand for a literal dollar sign (a currency symbol) instead of a variable reference.
env.escape_proxy = True
ENVIRONMENT = env.str("DJANGO_ENV", default="development")
if ENVIRONMENT not in {"development", "production", "test"}:
    raise environ.ImproperlyConfigured(
        f"DJANGO_ENV must be development, production or test, not {ENVIRONMENT!r}"
    )

# Where the embedded defaults keep their files: the SQLite database and the server-less
# Celery broker's queue folders.
DATA_DIR = Path(env.str("SHOESCHOOL_DATA_DIR", default=str(BASE_DIR / "var")))
# The embedded defaults must work with no set-up step, so the folder is made here.
DATA_DIR.mkdir(parents=True, exist_ok=True)
