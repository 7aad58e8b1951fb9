"""Scarne's Casino rules engine: plain Python, no Django, no app (an import contract says so).

- `cards`: cards and the pack; `table`: loose cards, builds, item keys, a `Play`;
- `state`: a hand's state, the deal (six deals, "Last"), the last take; `hand`: a whole
  hand or match played by a chooser of plays;
- `legality`: `refusal` (the one reason from the spec's ordered list) and `apply`;
- `plays`: every legal play of a card;
- `scoring`: the score by line, winner and margin, the invariants, match play;
- `rulings`: penalties and misdeals; `profiles`: `scarne-casino` and its parameters;
- `scenario`, `answer_key`, `jsonl`, `staging`, `errors`: the `casino-scenario/1` format
  (docs/casino-format.md): read with a reason at a path, the answer key, JSON Lines all
  or nothing, a state written as a document.

The rules are docs/casino-rules.md.
"""

from .answer_key import answer_key, answers
from .cards import full_pack, parse_card, value_of
from .errors import CasinoScenarioError
from .hand import play_hand, play_match
from .jsonl import read_lines, write_lines
from .legality import REASONS, IllegalPlayError, apply, is_legal, refusal
from .plays import all_legal_plays, legal_plays
from .profiles import SCARNE, Profile, profile_from
from .rulings import Ruling, rule_on
from .scenario import Scenario, read
from .scoring import HandScore, InvariantError, check_invariants, match_after, score, score_state
from .staging import document_of
from .state import State, new_hand
from .table import Build, Play, build, take, trail

__all__ = [
    "REASONS",
    "SCARNE",
    "Build",
    "CasinoScenarioError",
    "HandScore",
    "IllegalPlayError",
    "InvariantError",
    "Play",
    "Profile",
    "Ruling",
    "Scenario",
    "State",
    "all_legal_plays",
    "answer_key",
    "answers",
    "apply",
    "build",
    "check_invariants",
    "document_of",
    "full_pack",
    "is_legal",
    "legal_plays",
    "match_after",
    "new_hand",
    "parse_card",
    "play_hand",
    "play_match",
    "profile_from",
    "read",
    "read_lines",
    "refusal",
    "rule_on",
    "score",
    "score_state",
    "take",
    "trail",
    "value_of",
    "write_lines",
]
