"""Scarne's Casino rules engine: plain Python, no Django, no app (an import contract says so).

- `cards`: cards and the pack; `table`: loose cards, builds, item keys, a `Play`;
- `state`: a hand's state, the deal (six deals, "Last"), the last take;
- `legality`: `refusal` (the one reason from the spec's ordered list) and `apply`;
- `plays`: every legal play of a card;
- `scoring`: the score by line, winner and margin, the invariants, match play;
- `rulings`: penalties and misdeals; `profiles`: `scarne-casino` and its parameters;
- `scenario`, `answer_key`, `jsonl`: the `casino-scenario/1` format (docs/casino-format.md).

The rules are docs/casino-rules.md.
"""

from .cards import full_pack, parse_card, value_of
from .legality import REASONS, IllegalPlayError, apply, is_legal, refusal
from .plays import all_legal_plays, legal_plays
from .profiles import SCARNE, Profile, profile_from
from .rulings import Ruling, rule_on
from .scoring import HandScore, InvariantError, check_invariants, match_after, score, score_state
from .state import State, new_hand
from .table import Build, Play, build, take, trail

__all__ = [
    "REASONS",
    "SCARNE",
    "Build",
    "HandScore",
    "IllegalPlayError",
    "InvariantError",
    "Play",
    "Profile",
    "Ruling",
    "State",
    "all_legal_plays",
    "apply",
    "build",
    "check_invariants",
    "full_pack",
    "is_legal",
    "legal_plays",
    "match_after",
    "new_hand",
    "parse_card",
    "profile_from",
    "refusal",
    "rule_on",
    "score",
    "score_state",
    "take",
    "trail",
    "value_of",
]
