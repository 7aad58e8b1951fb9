# ruff: noqa: E501 (the titles are data, kept whole to be found by a search)
"""The shipped library's titles in words: 26 titles named a table by its profile's slug
("split again under casino-shoe"); they now name it as a pit does ("at the six-deck shoe
table"), as fixtures/scenarios/build_library.py writes them.

Only a title changes, so the active library row is renamed where it stands (its title and
its document's title) rather than revised: the drills dealing it keep dealing the same
row, `load_library` then finds it unchanged, and nothing graded changes. A row whose title
is not the shipped one (a pit boss's revision) and superseded revisions are left as they
were; the ledger's scenario entries keep the titles as first recorded, and rounds already
dealt keep the title they were dealt under.
"""

from django.db import migrations

# slug: (the title as shipped before, the title in words)
TITLES = {
    "bicycle-natural-against-ace-no-even-money": (
        "Natural against an ace: no even money under bicycle-6deck; paid after the peek",
        "Natural against an ace: no even money at the Bicycle six-deck table; paid after the peek",
    ),
    "bicycle-no-resplit": (
        "A third eight after the split is played, not split: bicycle-6deck allows two hands",
        "A third eight after the split is played, not split: the Bicycle six-deck table allows two hands",
    ),
    "bicycle-double-nine": (
        "Nine doubles against a three (bicycle-6deck doubles on 9, 10 and 11 only)",
        "Nine doubles against a three (the Bicycle six-deck table doubles on 9, 10 and 11 only)",
    ),
    "bicycle-777-no-prize": (
        "Three sevens make 21, but bicycle-6deck pays no 7-7-7 prize",
        "Three sevens make 21, but the Bicycle six-deck table pays no 7-7-7 prize",
    ),
    "double-deck-natural-against-ace-no-even-money": (
        "Natural against an ace: no even money under casino-double-deck; paid after the peek",
        "Natural against an ace: no even money at the double-deck table; paid after the peek",
    ),
    "double-deck-split-unlike-tens": (
        "Unlike tens (king and jack) may be split under casino-double-deck",
        "Unlike tens (king and jack) may be split at the double-deck table",
    ),
    "double-deck-resplit-limit-reached": (
        "A fifth eight cannot be split: casino-double-deck allows 4 hands",
        "A fifth eight cannot be split: the double-deck table allows 4 hands",
    ),
    "double-deck-double-soft-18": (
        "Soft 18 doubles against a four (casino-double-deck doubles on any two cards)",
        "Soft 18 doubles against a four (the double-deck table doubles on any two cards)",
    ),
    "double-deck-777-no-prize": (
        "Three sevens make 21, but casino-double-deck pays no 7-7-7 prize",
        "Three sevens make 21, but the double-deck table pays no 7-7-7 prize",
    ),
    "shoe-natural-against-ace-no-even-money": (
        "Natural against an ace: no even money under casino-shoe; paid after the peek",
        "Natural against an ace: no even money at the six-deck shoe table; paid after the peek",
    ),
    "shoe-split-unlike-tens": (
        "Unlike tens (king and jack) may be split under casino-shoe",
        "Unlike tens (king and jack) may be split at the six-deck shoe table",
    ),
    "shoe-resplit-limit-reached": (
        "A fifth eight cannot be split: casino-shoe allows 4 hands",
        "A fifth eight cannot be split: the six-deck shoe table allows 4 hands",
    ),
    "shoe-resplit-aces": (
        "A split ace dealt another ace is split again under casino-shoe",
        "A split ace dealt another ace is split again at the six-deck shoe table",
    ),
    "shoe-double-soft-18": (
        "Soft 18 doubles against a four (casino-shoe doubles on any two cards)",
        "Soft 18 doubles against a four (the six-deck shoe table doubles on any two cards)",
    ),
    "shoe-777-no-prize": (
        "Three sevens make 21, but casino-shoe pays no 7-7-7 prize",
        "Three sevens make 21, but the six-deck shoe table pays no 7-7-7 prize",
    ),
    "single-natural-against-ace-no-even-money": (
        "Natural against an ace: no even money under casino-single-deck-6to5; paid after the peek",
        "Natural against an ace: no even money at the single-deck 6 to 5 table; paid after the peek",
    ),
    "single-split-unlike-tens": (
        "Unlike tens (king and jack) may be split under casino-single-deck-6to5",
        "Unlike tens (king and jack) may be split at the single-deck 6 to 5 table",
    ),
    "single-resplit-aces": (
        "A split ace dealt another ace is split again under casino-single-deck-6to5",
        "A split ace dealt another ace is split again at the single-deck 6 to 5 table",
    ),
    "single-double-soft-18": (
        "Soft 18 doubles against a four (casino-single-deck-6to5 doubles on any two cards)",
        "Soft 18 doubles against a four (the single-deck 6 to 5 table doubles on any two cards)",
    ),
    "single-777-no-prize": (
        "Three sevens make 21, but casino-single-deck-6to5 pays no 7-7-7 prize",
        "Three sevens make 21, but the single-deck 6 to 5 table pays no 7-7-7 prize",
    ),
    "enhc-split-unlike-tens": (
        "Unlike tens (king and jack) may be split under european-enhc-6deck",
        "Unlike tens (king and jack) may be split at the European no-hole-card table",
    ),
    "enhc-double-soft-18": (
        "Soft 18 doubles against a four (european-enhc-6deck doubles on any two cards)",
        "Soft 18 doubles against a four (the European no-hole-card table doubles on any two cards)",
    ),
    "scarne-natural-against-ace-no-even-money": (
        "Natural against an ace: no even money under scarne-4deck; paid after the peek",
        "Natural against an ace: no even money at the Scarne four-deck table; paid after the peek",
    ),
    "scarne-split-unlike-tens": (
        "Unlike tens (king and jack) may be split under scarne-4deck",
        "Unlike tens (king and jack) may be split at the Scarne four-deck table",
    ),
    "scarne-double-soft-18": (
        "Soft 18 doubles against a four (scarne-4deck doubles on any two cards)",
        "Soft 18 doubles against a four (the Scarne four-deck table doubles on any two cards)",
    ),
    "scarne-777-no-prize": (
        "Three sevens make 21, but scarne-4deck pays no 7-7-7 prize",
        "Three sevens make 21, but the Scarne four-deck table pays no 7-7-7 prize",
    ),
}


def _rename(apps, frm: int, to: int) -> None:
    scenario = apps.get_model("trainer", "Scenario")
    for slug, titles in TITLES.items():
        for row in scenario.objects.filter(slug=slug, is_active=True, title=titles[frm]):
            row.title = titles[to]
            if isinstance(row.document, dict) and row.document.get("title") == titles[frm]:
                row.document = {**row.document, "title": titles[to]}
            row.save(update_fields=["title", "document"])


def titles_in_words(apps, schema_editor):
    _rename(apps, 0, 1)


def titles_as_before(apps, schema_editor):
    _rename(apps, 1, 0)


class Migration(migrations.Migration):
    dependencies = [("trainer", "0016_vouch_existing_grades")]

    operations = [migrations.RunPython(titles_in_words, titles_as_before)]
