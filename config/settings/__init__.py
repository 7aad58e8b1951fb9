"""Settings for Shoe School, read from the environment (see docs/operations.md).

DJANGO_ENV chooses the configuration: ``development`` (the default, works with no
environment at all), ``production`` (refuses to start without its secrets), or ``test``.
"""

from .base import *  # noqa: F403
from .base import ENVIRONMENT

if ENVIRONMENT == "production":
    from .production import *  # noqa: F403
