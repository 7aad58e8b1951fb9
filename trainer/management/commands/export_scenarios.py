"""Export the scenario library as JSON Lines (the library's own format) or a JSON array."""

from __future__ import annotations

import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from trainer.labels import skill_codes
from trainer.selectors.scenarios import scenario_list
from trainer.services.scenarios import scenario_export


class Command(BaseCommand):
    help = "Write the active library scenarios, optionally of one profile or skill."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--format", choices=["jsonl", "json"], default="jsonl")
        parser.add_argument("--out", help="the file to write (default: standard output)")
        parser.add_argument("--profile", help="only scenarios of this rule profile")
        parser.add_argument("--skill", choices=skill_codes(), help="only scenarios with this skill")

    def handle(self, *args: Any, **options: Any) -> None:
        scenarios = scenario_list(profile=options["profile"], skill=options["skill"])
        entries = scenario_export(scenarios=scenarios)
        if options["format"] == "json":
            text = json.dumps(entries, indent=2, ensure_ascii=False) + "\n"
        else:
            text = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries)
        if options["out"]:
            try:
                Path(options["out"]).write_text(text, encoding="utf-8")
            except OSError as err:
                raise CommandError(f"cannot write {options['out']}: {err}") from err
            self.stderr.write(f"{len(entries)} scenarios written to {options['out']}")
        else:
            self.stdout.write(text, ending="")
