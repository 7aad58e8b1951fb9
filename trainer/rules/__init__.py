"""The rules engine: plain Python that plays and settles staged blackjack rounds.

Nothing here imports Django or any third-party package, so it can be used (and tested)
anywhere: the web app, the Celery tasks, the command line and outside tools.

`scripts/build-engine` may compile the modules with mypyc (a .so next to each .py, which
Python prefers); `COMPILED` says whether this process runs the compiled engine. This file
stays Python, so it can warn when a compiled module is older than its source.
"""

import sys
import warnings
from pathlib import Path

from .answer_key import (
    Verdict,
    answer_key,
    compare,
    key_questions,
    signed_amount,
    unanswered,
)
from .errors import ScenarioError
from .fill import fill_actions
from .play import Chooser, DecisionPoint
from .profiles import PROFILES, Profile, profile_from_dict, profile_from_rules, profile_to_dict
from .results import BoxResult, DealerResult, HandResult, PlayerResult, Round
from .scenario import FORMAT as SCENARIO_FORMAT
from .settlement import SETTLEMENT_FORMAT, json_line, play, settle, settlement_dict
from .vocabulary import (
    CHIP_KINDS,
    MONEY_KINDS,
    PROCEDURE_ANSWERS,
    Category,
    Kind,
    MoneyAction,
    ProcedureAnswer,
    Question,
    kind_of,
    money_action_of,
)


def _compiled() -> bool:
    """Whether the modules run compiled (imported from a .so), warning when one is stale."""
    module = sys.modules[__name__ + ".settlement"]
    compiled = not str(getattr(module, "__file__", "")).endswith(".py")
    if compiled:
        folder = Path(__file__).parent
        for source in folder.glob("*.py"):
            built = list(folder.glob(source.stem + ".*.so"))
            if built and source.stat().st_mtime > built[0].stat().st_mtime:
                warnings.warn(
                    f"the compiled rules engine is older than {source.name}, which Python "
                    "ignores: run scripts/build-engine (or --clean for pure Python)",
                    RuntimeWarning,
                    stacklevel=2,
                )
                break
    return compiled


COMPILED: bool = _compiled()

__all__ = [
    "CHIP_KINDS",
    "COMPILED",
    "MONEY_KINDS",
    "PROCEDURE_ANSWERS",
    "PROFILES",
    "SCENARIO_FORMAT",
    "SETTLEMENT_FORMAT",
    "BoxResult",
    "Category",
    "Chooser",
    "DealerResult",
    "DecisionPoint",
    "HandResult",
    "Kind",
    "MoneyAction",
    "PlayerResult",
    "ProcedureAnswer",
    "Profile",
    "Question",
    "Round",
    "ScenarioError",
    "Verdict",
    "answer_key",
    "compare",
    "fill_actions",
    "json_line",
    "key_questions",
    "kind_of",
    "money_action_of",
    "play",
    "profile_from_dict",
    "profile_from_rules",
    "profile_to_dict",
    "settle",
    "settlement_dict",
    "signed_amount",
    "unanswered",
]
