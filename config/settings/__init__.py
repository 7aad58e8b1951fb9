"""Settings for Shoe School, read from the environment (see docs/operations.md).

DJANGO_ENV chooses the configuration: ``development`` (the default, works with no
environment at all), ``production`` (refuses to start without its secrets), or ``test``.
The test suite uses ``config.settings.test``, which must set its environment before the
base settings read it; importing that module runs this package first, so the base
settings are loaded here only when this package is the settings module itself.
"""

import os

if os.environ.get("DJANGO_SETTINGS_MODULE", "config.settings") == "config.settings":
    from .base import *  # noqa: F403
    from .base import ENVIRONMENT

    if ENVIRONMENT == "production":
        from .production import *  # noqa: F403
