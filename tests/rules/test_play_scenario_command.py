"""`manage.py play_scenario`: one line per scenario, exit 0 when all settle and 2 otherwise."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = Path(__file__).parent / "conformance"


def scenarios(name: str, count: int) -> list[dict[str, Any]]:
    with open(CONFORMANCE / name, encoding="utf-8") as handle:
        return [json.loads(line)["scenario"] for line in handle if line.strip()][:count]


def run(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "play_scenario", *args, "-"],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=120,
    )


def test_it_settles_json_lines_and_exits_0() -> None:
    good = scenarios("valid.jsonl", 5)
    done = run("\n".join(json.dumps(s) for s in good) + "\n\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [json.loads(line)["id"] for line in lines] == [s["id"] for s in good]
    assert all(json.loads(line)["format"] == "blackjack-settlement/1" for line in lines)


def test_it_reads_one_pretty_printed_scenario() -> None:
    done = run(json.dumps(scenarios("valid.jsonl", 1)[0], indent=2))
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 1


def test_a_bad_line_does_not_stop_the_others_and_exits_2() -> None:
    good = scenarios("valid.jsonl", 2)
    bad = scenarios("invalid.jsonl", 1)[0]
    text = "\n".join(
        [json.dumps(good[0]), "{not json", json.dumps(bad), "[1, 2]", json.dumps(good[1])]
    )
    done = run(text)
    assert done.returncode == 2
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == 5
    assert [("error" in o) for o in out] == [False, True, True, True, False]
    assert out[2]["field"]
    assert out[2]["reason"]
    assert out[4]["id"] == good[1]["id"]


def test_it_prints_answer_keys_on_request() -> None:
    good = scenarios("valid.jsonl", 2)
    done = run("\n".join(json.dumps(s) for s in good), "--answer-key")
    assert done.returncode == 0, done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert [o["id"] for o in out] == [s["id"] for s in good]
    assert out[0]["answer_key"][-1]["kind"] == "reshuffle"


def test_a_document_with_chips_settles_and_keys_with_its_stacks() -> None:
    library = ROOT / "fixtures" / "scenarios" / "casino-shoe.jsonl"
    lines = [json.loads(line)["scenario"] for line in library.read_text().splitlines()]
    doc = next(d for d in lines if d["id"] == "shoe-chips-natural-25")
    plain = next(d for d in lines if d["id"] == "shoe-natural-20")
    done = run(json.dumps(doc) + "\n" + json.dumps(plain))
    assert done.returncode == 0, done.stderr
    chipped, settled = (json.loads(line) for line in done.stdout.splitlines())
    assert chipped["chips"]["pay"] == [
        {
            "box": 3,
            "hand": 1,
            "player": "p1",
            "for": "settle_hand",
            "amount": "37.50",
            "chips": ["25", "5", "5", "2.50"],
        }
    ]
    assert "chips" not in settled
    done = run(json.dumps(doc), "--answer-key")
    key = json.loads(done.stdout)["answer_key"]
    paid = [item for item in key if item["kind"] == "pay_in_chips"]
    assert paid[0]["expected"]["chips"] == ["25", "5", "5", "2.50"]
