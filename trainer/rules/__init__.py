"""The rules engine: plain Python that plays and settles staged blackjack rounds.

Nothing here imports Django or any third-party package, so it can be used (and tested)
anywhere: the web app, the Celery tasks, the command line and outside tools.
"""

from .answer_key import Verdict, answer_key, compare, questions
from .errors import ScenarioError
from .fill import fill_actions
from .play import Chooser, DecisionPoint
from .profiles import PROFILES, Profile, profile_from_dict, profile_from_rules, profile_to_dict
from .results import BoxResult, DealerResult, HandResult, PlayerResult, Round
from .scenario import FORMAT as SCENARIO_FORMAT
from .settlement import SETTLEMENT_FORMAT, json_line, play, settle, settlement_dict

__all__ = [
    "PROFILES",
    "SCENARIO_FORMAT",
    "SETTLEMENT_FORMAT",
    "BoxResult",
    "Chooser",
    "DealerResult",
    "DecisionPoint",
    "HandResult",
    "PlayerResult",
    "Profile",
    "Round",
    "ScenarioError",
    "Verdict",
    "answer_key",
    "compare",
    "fill_actions",
    "json_line",
    "play",
    "profile_from_dict",
    "profile_from_rules",
    "profile_to_dict",
    "questions",
    "settle",
    "settlement_dict",
]
