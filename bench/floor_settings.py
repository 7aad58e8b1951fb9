"""The floor bench's settings: production's (DJANGO_ENV=production, with its secrets and
HTTPS-only cookies), except where the static files are collected.

Production's storage compresses every static file at collectstatic (brotli and gzip),
which takes minutes on a busy machine and serves nothing the bench asks for: the bench
collects them, hashed and with the same manifest, into a folder of its own
(SHOESCHOOL_FLOOR_STATIC), leaving the checkout's staticfiles/ alone.
"""

import os
from pathlib import Path

from config.settings.base import *  # noqa: F403
from config.settings.production import *  # noqa: F403

STATIC_ROOT = Path(os.environ["SHOESCHOOL_FLOOR_STATIC"])
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
}
