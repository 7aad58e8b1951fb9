"""The built-in profiles get the names a pit calls their tables, where they still had
their slug as a title (what the table tests, dashboards and records show)."""

from django.db import migrations

TITLES = {
    "scarne-4deck": "Scarne four-deck",
    "casino-single-deck-6to5": "Single deck, blackjack pays 6 to 5",
    "casino-double-deck": "Double deck",
    "casino-shoe": "Six-deck shoe",
    "bicycle-6deck": "Bicycle six-deck",
    "european-enhc-6deck": "European no hole card, six decks",
}


def name_tables(apps, schema_editor):
    profile = apps.get_model("trainer", "RuleProfile")
    for name, title in TITLES.items():
        profile.objects.filter(name=name, title__in=["", name]).update(title=title)


class Migration(migrations.Migration):
    dependencies = [("trainer", "0009_exams_that_certify")]

    operations = [migrations.RunPython(name_tables, migrations.RunPython.noop)]
