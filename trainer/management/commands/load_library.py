"""Load the shipped scenario library (fixtures/scenarios/) idempotently."""

from typing import Any

from django.core.management.base import BaseCommand

from trainer.management.commands.import_scenarios import load_library


class Command(BaseCommand):
    help = "Import fixtures/scenarios/*.jsonl; unchanged scenarios are kept, changed ones revised."

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(load_library())
