"""The compliance reports as anchors of the ledger: each ready report states the ledger's head.

The ledger (ledger.services.verify) checks its chain against every anchor source it is
given; audit's AppConfig.ready gives it this one, so the ledger needs no import of audit.
"""

from __future__ import annotations

import datetime as dt

from audit.selectors.reports import ledger_positions, reports_ledger_heads
from ledger.chain import GENESIS_HASH, Anchor


def report_anchors() -> tuple[list[Anchor], list[str]]:
    """The head every ready compliance report states, at the entry it names.

    A report made before reports recorded that entry is placed by its hash; one whose hash
    no entry has any more is a problem of its own.
    """
    anchors: list[Anchor] = []
    unplaced: dict[str, str] = {}
    for report in reports_ledger_heads():
        made = (report.finished_at or report.requested_at).astimezone(dt.UTC)
        source = (
            f"the compliance report for {report.period_start.isoformat()} to "
            f"{report.period_end.isoformat()} made {made:%Y-%m-%d %H:%M} UTC"
        )
        if report.ledger_entries is not None:
            anchors.append(Anchor(report.ledger_entries, report.ledger_head_hash, source))
        elif report.ledger_head_hash != GENESIS_HASH:
            unplaced.setdefault(report.ledger_head_hash, source)
    positions = ledger_positions(hashes=unplaced) if unplaced else {}
    problems: list[str] = []
    for head_hash, source in unplaced.items():
        if head_hash in positions:
            anchors.append(Anchor(positions[head_hash], head_hash, source))
        else:
            problems.append(
                f"no entry of the ledger has the head hash {source} states: "
                "the ledger was rewritten after it"
            )
    return anchors, problems
