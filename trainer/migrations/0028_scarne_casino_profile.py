"""Scarne's Casino's shipped table, `scarne-casino` (game "casino"), as version 1.

Frozen here as the game gives it (trainer.games.casino.authoring: its parameters, source and
assumed rules), so the migration reads no game: a migration's data never changes with the
code (tests/trainer/test_casino_game_author.py checks the rows against the game).
"""

from django.db import migrations

SHIPPED = [
    {
        "name": "scarne-casino",
        "title": "Scarne's Casino",
        "game": "casino",
        "parameters": {
            "name": "scarne-casino",
            "source": "scarne-casino-card-game.txt",
            "assumed": [],
            "sweeps": False,
            "match_goal": None,
        },
        "source": "scarne-casino-card-game.txt",
        "assumed": [],
    },
]


def load_casino_profile(apps, schema_editor):
    RuleProfile = apps.get_model("trainer", "RuleProfile")
    RuleProfileVersion = apps.get_model("trainer", "RuleProfileVersion")
    for row in SHIPPED:
        record, _ = RuleProfile.objects.get_or_create(
            name=row["name"], defaults={"title": row["title"], "game": row["game"]}
        )
        if not RuleProfileVersion.objects.filter(profile=record).exists():
            RuleProfileVersion.objects.create(
                profile=record,
                version=1,
                parameters=dict(row["parameters"]),
                source=row["source"],
                assumed=list(row["assumed"]),
                notes="Scarne's rules for two-handed Casino, as published.",
            )


class Migration(migrations.Migration):
    dependencies = [("trainer", "0027_grading_run_lease")]

    operations = [migrations.RunPython(load_casino_profile, migrations.RunPython.noop)]
