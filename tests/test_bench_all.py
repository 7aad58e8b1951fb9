"""`bench/all`, the one command that runs every bench, at its smoke size on the two benches
that need no server: it prints one table headed by the machine, PostgreSQL's durability
settings (or why they could not be read) and the commit, with each step's load before and
after it and its figures. No figure is asserted: performance is measured, not tested."""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_quick_engine_and_library_print_one_table(tmp_path):
    run = subprocess.run(
        [str(ROOT / "bench" / "all"), "--quick", "--only", "engine", "library",
         "--out", str(tmp_path)],
        cwd=ROOT,
        env={**os.environ, "PY": sys.executable},
        capture_output=True,
        text=True,
        timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    table = run.stdout.split("=" * 78, 2)[2]
    header = run.stdout.split("=" * 78, 2)[1]
    assert re.search(r"^machine: .+, \d+ cores, [\d.]+ GiB memory", header, re.M), header
    assert re.search(
        r"^PostgreSQL .*(fsync=\w+, synchronous_commit=\w+|not reachable)", header, re.M
    )
    assert re.search(r"^commit measured: [0-9a-f]{7,}", header, re.M), header
    rows = [line.split(None, 1) for line in table.strip().splitlines()[1:]]
    assert {bench for bench, _ in rows} == {"engine", "library"}
    for bench in ("engine", "library"):
        assert re.search(
            rf"^{bench}\s+load average before -> after \(1, 5, 15 min\)\s+[\d. ]+ -> [\d. ]+$",
            table, re.M,
        ), table  # fmt: skip
        assert re.search(rf"^{bench}\s+exit status, wall\s+0, \d+ s$", table, re.M), table
    assert re.search(
        r"^engine\s+Python API: settle\(doc\).*CPU [\d.]+ s, [\d,]+ rounds/s", table, re.M
    )
    assert re.search(r"^library\s+casino-shoe\s+\d+ rounds in [\d.]+ s", table, re.M), table
    assert (tmp_path / "engine.log").read_text().startswith("Engine benchmark")


def _bench_all():
    from importlib.machinery import SourceFileLoader
    from importlib.util import module_from_spec, spec_from_loader

    loader = SourceFileLoader("bench_all", str(ROOT / "bench" / "all"))
    spec = spec_from_loader("bench_all", loader)
    assert spec is not None
    module = module_from_spec(spec)
    loader.exec_module(module)
    return module


def test_the_live_session_bench_is_a_group_and_its_lines_are_figures():
    bench_all = _bench_all()
    assert "live" in bench_all.GROUPS
    # First its own scratch SQLite and development server (no database: the quick size runs
    # without PostgreSQL), then production's set-up on the group's scratch database.
    (first, *production) = bench_all.FULL["live"]
    assert first == ("live", ["live_session.py", "--trainees", "40", "--questions", "4"], "")
    assert production
    assert all("--production" in bench and needs == "db" for _, bench, needs in production)
    assert [needs for _, _, needs in bench_all.QUICK["live"]] == [""]
    assert "--trainees" in bench_all.QUICK["live"][0][1]
    output = "\n".join([
        "3 trainees joined session ABC234 at http://127.0.0.1:1234",
        "answers accepted: 6 of 6, within the window: 6, refused: 0",
        "answer ms: p50 40, p95 90, max 120",
        "instructor's count behind by s: p95 0.80, max 0.95 (polled every 1 s)",
        "reconciliation: accepted 6 = decisions 6 = ledger entries 6 = counted at the "
        "closes 6; attempts submitted 3 of 3",
        "all checks passed",
    ])  # fmt: skip
    assert bench_all.figures(output) == [
        ("answers accepted", "6 of 6, within the window: 6, refused: 0"),
        ("answer ms", "p50 40, p95 90, max 120"),
        ("instructor's count behind by s", "p95 0.80, max 0.95 (polled every 1 s)"),
        (
            "reconciliation",
            "accepted 6 = decisions 6 = ledger entries 6 = counted at the closes 6; "
            "attempts submitted 3 of 3",
        ),
        ("all checks passed", ""),
    ]


def test_the_floors_cpu_per_answer_is_a_figure_with_and_without_the_sign_ins():
    bench_all = _bench_all()
    output = "\n".join([
        "sent after every trainee signed in (20 s into the run):",
        "server CPU per accepted answer after sign-in: 41.0 ms (gunicorn 30.2 ms; 1.10 cores "
        "busy over 100 s)",
        "server CPU per accepted answer: 67.2 ms (gunicorn 52.4 ms)",
    ])  # fmt: skip
    assert bench_all.figures(output) == [
        (
            "server CPU per accepted answer after sign-in",
            "41.0 ms (gunicorn 30.2 ms; 1.10 cores busy over 100 s)",
        ),
        ("server CPU per accepted answer", "67.2 ms (gunicorn 52.4 ms)"),
    ]
