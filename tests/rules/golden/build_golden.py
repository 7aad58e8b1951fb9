"""Rebuild the golden settlements and answer keys (run only when a change is meant).

    .venv/bin/python -m tests.rules.golden.build_golden

Every scenario of the conformance examples and the shipped library, played by the engine
as it is: its settlement JSON and each answer-key item without its `view` (which another
change extends). tests/rules/test_golden.py asserts the engine still gives exactly these.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from trainer.rules import answer_key, settle

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = Path(__file__).with_name("golden.jsonl.gz")


def documents() -> list[dict[str, Any]]:
    """Every playable scenario the golden file covers, in a stable order."""
    docs: list[dict[str, Any]] = []
    paths = [ROOT / "tests/rules/conformance/valid.jsonl"]
    paths += sorted((ROOT / "fixtures/scenarios").glob("*.jsonl"))
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                entry = json.loads(line) if line.strip() else {}
                # Blackjack's lines wrap a document; the library's Casino situations are
                # bare casino-scenario/1 documents, another game's, not this engine's.
                if "scenario" in entry:
                    docs.append(entry["scenario"])
    return docs


def record(doc: dict[str, Any]) -> str:
    key = [{k: v for k, v in item.items() if k != "view"} for item in answer_key(doc)]
    out = {"id": doc.get("id"), "settlement": settle(doc), "key": key}
    return json.dumps(out, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def main() -> None:
    lines = [record(doc) for doc in documents() if "chips" not in doc]
    with gzip.open(GOLDEN, "wt", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    print(f"{len(lines)} documents written to {GOLDEN}")


if __name__ == "__main__":
    main()
