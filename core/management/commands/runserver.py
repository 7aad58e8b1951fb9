"""Django's development server, refusing to listen beyond this computer in development.

In development the site runs with DEBUG on, the published development keys and the demo
accounts with their published password: on a network, anyone could sign in as the demo
administrator or forge a session. Serving tablets is scripts/serve-network's job
(production settings, secrets of its own, no demo accounts; docs/operations.md).
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError
from whitenoise.runserver_nostatic.management.commands.runserver import (
    Command as NoStaticRunserver,
)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or a name, as runserver takes it) is this computer only."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class Command(NoStaticRunserver):
    def run(self, **options: Any) -> None:
        development = settings.DEBUG or settings.ENVIRONMENT != "production"
        if development and not is_loopback(str(self.addr)):
            raise CommandError(
                f"The development server listens only on this computer (127.0.0.1, ::1 or "
                f"localhost), not on {self.addr}: it runs with DEBUG on, the published "
                "development keys and the demo accounts. To serve tablets on a network, run "
                "scripts/serve-network ADDRESS:PORT (docs/operations.md, Serving tablets on a "
                "network)."
            )
        super().run(**options)
