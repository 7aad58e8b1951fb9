"""The fields of Casino's staging form (editing), as the workspace draws them: the table
(which deal, whose turn, the loose cards, the rules the situation changes), up to four
builds, each player's hand, cards taken and sweeps, who took last, and up to three
questions, each with what its kind needs (the card; the play; the penalty's facts, shown
only for the situation that asks them)."""

from __future__ import annotations

from trainer.games.authoring import StagedField
from trainer.games.casino import words
from trainer.games.casino.editing_words import BUILD_ROWS, FACTS, QUESTION_ROWS

PLAYERS = words.PLAYERS
PLAYER_CHOICES = (("non_dealer", "The non-dealer"), ("dealer", "The dealer"))
KINDS = (
    ("is_legal", "Is this play legal? (and if not, why not)"),
    ("may_take", "What may this card take?"),
    ("legal_plays", "What may the player do with this card?"),
    ("score_hand", "Score the hand"),
    ("rule_on", "Rule on this (a penalty or a misdeal)"),
)
DEALS = (*((str(n), f"Deal {n} of 6") for n in range(1, 6)), ("6", "Last deal (6 of 6)"))
MATCH_GOALS = (
    ("", "The table's own rule"),
    ("none", "No match: each hand is a game"),
    ("11", "11 points"),
    ("21", "21 points"),
)
CARD_KINDS = ("is_legal", "may_take", "legal_plays")
DOES = (("take", "Takes"), ("build", "Builds"), ("trail", "Trails"))
SITUATION_CHOICES = tuple(
    (kind, "The dealer did not announce “Last”")
    if kind == "last_not_announced"
    else (kind, f"A player {said}")
    for kind, said in words.SITUATION_WORDS.items()
)
CARDS_HELP = (
    "Cards as a dealer writes them: a rank (A, 2-10, J, Q, K) and a suit (♠ ♥ ♦ ♣, or "
    "the letters s h d c), e.g. 10♦ A♠"
)


def _table_fields() -> list[StagedField]:
    group = "The table"
    out = [
        StagedField(
            "deal",
            "Which deal",
            kind="choice",
            choices=DEALS,
            group=group,
        ),
        StagedField("turn", "Whose turn", kind="choice", choices=PLAYER_CHOICES, group=group),
        StagedField("loose", "Loose cards on the table", CARDS_HELP, "cards", group=group),
        StagedField(
            "sweeps_rule",
            "Sweeps score a point in this situation",
            kind="choice",
            choices=(("", "The table's own rule"), ("yes", "Yes: 1 each"), ("no", "No")),
            group=group,
            row="rules",
        ),
        StagedField(
            "match_rule",
            "A match is played to, in this situation",
            kind="choice",
            choices=MATCH_GOALS,
            group=group,
            row="rules",
        ),
    ]
    group = "Builds on the table (leave a row empty when there is no such build)"
    for n in BUILD_ROWS:
        out += [
            StagedField(
                f"build_{n}_cards",
                f"Build {n}: its cards",
                kind="cards",
                group=group,
                row=f"build {n}",
            ),
            StagedField(
                f"build_{n}_value",
                f"Build {n}: the value announced",
                kind="number",
                group=group,
                row=f"build {n}",
            ),
            StagedField(
                f"build_{n}_kind",
                f"Build {n}: single or multiple",
                kind="choice",
                choices=(
                    ("single", "Single"),
                    ("multiple", "Multiple"),
                ),
                help="Single: its cards add up to the value; multiple: groups each worth it"
                if n == 1
                else "",
                group=group,
                row=f"build {n}",
            ),
            StagedField(
                f"build_{n}_owner",
                f"Build {n}: whose build",
                help="Who made it, or last raised or added to it" if n == 1 else "",
                kind="choice",
                choices=(("non_dealer", "The non-dealer's"), ("dealer", "The dealer's")),
                group=group,
                row=f"build {n}",
            ),
        ]
    return out


def _player_fields() -> list[StagedField]:
    group = "The players"
    out: list[StagedField] = []
    for who in PLAYERS:
        title = words.player_words(who, title=True)
        out += [
            StagedField(
                f"hand_{who}",
                f"{title}: the hand",
                "At most four cards",
                "cards",
                group=group,
                row=who,
            ),
            StagedField(
                f"taken_{who}",
                f"{title}: the cards taken so far",
                kind="cards",
                group=group,
                row=who,
            ),
            StagedField(
                f"sweeps_{who}",
                f"{title}: sweeps made so far",
                "Only where sweeps score; empty: none",
                "number",
                group=group,
                row=who,
            ),
        ]
    out.append(
        StagedField(
            "last_capturer",
            "Who took last",
            "Who made the last capture so far: the cards left on the table go to them",
            "choice",
            choices=(("", "Nobody yet"), *PLAYER_CHOICES),
            group=group,
        )
    )
    return out


def _question_fields(n: int) -> list[StagedField]:
    group = f"Question {n}" + ("" if n == 1 else " (optional)")
    kind, situation = f"q{n}_kind", f"q{n}_situation"
    play = (kind, ("is_legal",))
    builds = tuple((str(row), f"Build {row}") for row in BUILD_ROWS)
    out = [
        StagedField(
            kind,
            "The question asked",
            kind="choice",
            choices=KINDS if n == 1 else (("", "(no question)"), *KINDS),
            group=group,
            row=f"ask {n}",
        ),
        StagedField(
            f"q{n}_card",
            "The card played, or asked about",
            "One card, in the hand of the player whose turn it is",
            "cards",
            group=group,
            shown_by=(kind, CARD_KINDS),
            row=f"ask {n}",
        ),
        StagedField(
            f"q{n}_does",
            "What the card does",
            kind="choice",
            choices=DOES,
            group=group,
            shown_by=play,
            row=f"play {n}",
        ),
        StagedField(
            f"q{n}_on",
            "The build it raises or adds to",
            kind="choice",
            choices=(("", "None: a new build"), *builds),
            group=group,
            shown_by=play,
            row=f"play {n}",
        ),
        StagedField(
            f"q{n}_value",
            "The value it announces (a build)",
            kind="number",
            group=group,
            shown_by=play,
            row=f"play {n}",
        ),
        StagedField(
            f"q{n}_builds",
            "The builds it takes",
            kind="choices",
            choices=builds,
            group=group,
            shown_by=play,
            row=f"items {n}",
        ),
        StagedField(
            f"q{n}_loose",
            "The loose cards it takes or builds with",
            kind="cards",
            group=group,
            shown_by=play,
            row=f"items {n}",
        ),
        StagedField(
            situation,
            "What happened",
            kind="choice",
            choices=SITUATION_CHOICES,
            group=group,
            shown_by=(kind, ("rule_on",)),
        ),
    ]
    for fact, (label, kind_of, choices, situations) in FACTS.items():
        out.append(
            StagedField(
                f"q{n}_{fact}",
                label,
                kind=kind_of,
                choices=choices,
                group=group,
                shown_by=(situation, situations),
            )
        )
    return out


FIELDS: tuple[StagedField, ...] = (
    *_table_fields(),
    *_player_fields(),
    *(field for n in QUESTION_ROWS for field in _question_fields(n)),
)
