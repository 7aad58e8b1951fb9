"""The training floor under load: simulated trainees against the production set-up, with
nothing lost, nothing doubled, and faults.

usage: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python bench/floor.py
           [--sizes 25 50 100 200] [--duration 120] [--think 2 5] [--fault web|worker|redis]

Everything runs on 127.0.0.1. The bench makes a scratch database of its own (--database,
dropped and made again, on the server DATABASE_URL names), collects the static files and
starts, with DJANGO_ENV=production and throwaway secrets: gunicorn (config.wsgi, --workers),
a prefork Celery worker, celery beat (the grading sweep) and a redis-server of its own (so
that no other worker takes its tasks, and so that --fault redis can restart it). The
clients say X-Forwarded-Proto: https, as the TLS proxy in front of production would.

For each size it makes that many trainee accounts (one pit boss assigns each a practice
drill of --rounds casino-shoe rounds) and runs bench/floor_load.py: locust users that sign
in through the login page and take attempts through the trainee API for --duration
seconds, thinking --think seconds before each answer. Then it prints the latencies, the
errors by kind and the server's CPU, waits for grading, and reconciles: every answer a
client was told was accepted is one decision in the database and one decision entry in the
ledger, nothing else is there, every submitted attempt is graded, and verify_audit_log
passes. --fault kills a part halfway through each run. Exits 1 if any check fails or any
request met a 500.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PASSWORD = "floor-bench-password"  # noqa: S105 - throwaway accounts in a scratch database
TICK = os.sysconf("SC_CLK_TCK")
CORES = os.cpu_count() or 1


def free_port(preferred: int) -> int:
    for port in (preferred, 0):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(probe.getsockname()[1])
    raise RuntimeError("no free port on 127.0.0.1")


def wait_port(port: int, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise RuntimeError(f"nothing answers on 127.0.0.1:{port}")


def children(pid: int) -> list[int]:
    """A process's descendants, from /proc."""
    out: list[int] = []
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return out
    for kid in map(int, kids):
        out += [kid, *children(kid)]
    return out


def cpu_seconds(pid: int) -> float | None:
    """The CPU a process has used, its reaped children's included."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    # utime, stime, cutime, cstime are fields 14-17 (1-based); fields[0] is field 3.
    return sum(int(value) for value in fields[11:15]) / TICK


def postgres_backends(database: str) -> list[int]:
    """The PostgreSQL server processes serving this database (their titles name it)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if title.startswith("postgres: ") and f" {database} " in title:
            found.append(int(entry.name))
    return found


class Services:
    """gunicorn, a Celery worker, celery beat and redis-server, on loopback."""

    def __init__(self, env: dict[str, str], folder: Path, args: argparse.Namespace) -> None:
        self.env, self.folder, self.args = env, folder, args
        self.redis_port = free_port(56395)
        self.web_port = free_port(58395)
        env["CELERY_BROKER_URL"] = f"redis://127.0.0.1:{self.redis_port}/0"
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.logs: list[Any] = []
        self.restarts: list[str] = []
        self.lock = threading.Lock()
        # The runs not yet graded when the last fault struck, by status, and when it struck.
        self.in_flight: dict[int, str] = {}
        self.fault_at: float | None = None

    def _start(self, name: str, command: list[str]) -> subprocess.Popen[bytes]:
        log = (self.folder / f"{name}.log").open("ab")
        self.logs.append(log)
        process = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )
        self.procs[name] = process
        return process

    def start_redis(self) -> None:
        # Append-only, as a production broker would be: a restart keeps the queue.
        self._start(
            "redis",
            [
                shutil.which("redis-server") or "redis-server",
                "--bind", "127.0.0.1", "--port", str(self.redis_port), "--save", "",
                "--appendonly", "yes", "--dir", str(self.folder),
            ],
        )  # fmt: skip
        wait_port(self.redis_port)

    def start_worker(self) -> None:
        celery = [sys.executable, "-m", "celery", "-A", "config"]
        # --worker-nice: grading yields the cores to the trainees' requests (docs/operations.md).
        nice = ["nice", "-n", str(self.args.worker_nice)] if self.args.worker_nice else []
        self._start(
            "worker",
            [*nice, *celery, "worker", "--loglevel", "WARNING", "-c", str(self.args.concurrency)],
        )

    def start(self) -> None:
        self.start_redis()
        self._start(
            "gunicorn",
            [
                sys.executable, "-m", "gunicorn", "config.wsgi",
                "--bind", f"127.0.0.1:{self.web_port}", "--workers", str(self.args.web_workers),
                "--threads", str(self.args.web_threads),
                # gunicorn 27's control socket is one path per user: two at once share it.
                "--no-control-socket",
            ],
        )  # fmt: skip
        self.start_worker()
        self.start_beat()
        wait_port(self.web_port)

    def warm(self) -> None:
        """Every gunicorn worker serves the login page and the API once before the load: a
        worker's first request (imports, templates, its database connection) is not measured."""
        import urllib.error
        import urllib.request

        from bench.common import warm_workers

        def request() -> None:
            for path in ("/accounts/login/", "/api/attempts/"):
                url = f"http://127.0.0.1:{self.web_port}{path}"
                call = urllib.request.Request(url, headers={"X-Forwarded-Proto": "https"})
                with contextlib.suppress(urllib.error.URLError, OSError):
                    urllib.request.urlopen(call, timeout=30).close()  # noqa: S310 - loopback

        workers = children(self.procs["gunicorn"].pid)
        cold = warm_workers(request, workers, at_once=2 * len(workers))
        print(f"warmed {len(workers) - cold} of {len(workers)} web workers before measuring")

    def start_beat(self) -> None:
        celery = [sys.executable, "-m", "celery", "-A", "config"]
        schedule = str(self.folder / "beat-schedule")
        self._start("beat", [*celery, "beat", "--loglevel", "WARNING", "-s", schedule])

    def pids(self) -> dict[str, list[int]]:
        """The processes whose CPU counts, by part."""
        out: dict[str, list[int]] = {}
        for name in ("gunicorn", "worker", "beat", "redis"):
            process = self.procs.get(name)
            if process is not None and process.poll() is None:
                out[name] = [process.pid, *children(process.pid)]
        return out

    def supervise(self) -> None:
        """Start again a Celery process that exited, as systemd's Restart=always would (a
        worker exits on an "unrecoverable" broker error when Redis goes away)."""
        with self.lock:
            for name in ("worker", "beat"):
                process = self.procs.get(name)
                if process is not None and process.poll() is not None:
                    self.restarts.append(f"{name} exited ({process.returncode})")
                    if name == "worker":
                        self.start_worker()
                    else:
                        self.start_beat()

    def fault(self, kind: str) -> str:
        with self.lock:
            self.in_flight = runs_in_flight()
            self.fault_at = time.time()
            return self._fault(kind)

    def _fault(self, kind: str) -> str:
        if kind == "web":
            victim = children(self.procs["gunicorn"].pid)[0]
            os.kill(victim, signal.SIGKILL)
            return f"SIGKILL gunicorn worker {victim} (the master starts another)"
        if kind == "worker":
            worker = self.procs.pop("worker")
            pool = children(worker.pid)
            worker.send_signal(signal.SIGKILL)
            worker.wait()
            # The pool's processes lose their parent; a killed host takes them down too.
            for pid in pool:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(2)
            self.start_worker()
            return f"SIGKILL Celery worker {worker.pid} and its pool; a new one 2 s later"
        redis = self.procs.pop("redis")
        redis.send_signal(signal.SIGKILL)
        redis.wait()
        time.sleep(3)
        self.start_redis()
        return "SIGKILL redis-server; started again 3 s later on its append-only file"

    def stop(self) -> None:
        for process in self.procs.values():
            if process.poll() is None:
                process.terminate()
        for process in self.procs.values():
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        for log in self.logs:
            log.close()


class CpuMeter(threading.Thread):
    """Samples the CPU seconds of every process of the server once a second, so that a
    process that exits mid-run (a killed worker, a closed backend) still counts."""

    def __init__(self, services: Services, database: str) -> None:
        super().__init__(daemon=True)
        self.services, self.database = services, database
        self.first: dict[int, float] = {}
        self.last: dict[int, tuple[str, float]] = {}
        # (monotonic moment, CPU seconds by part so far) at each sample.
        self.timeline: list[tuple[float, dict[str, float]]] = []
        # (monotonic moment, busy and total jiffies of the whole machine: /proc/stat).
        self.machine: list[tuple[float, int, int]] = []
        self.running = True
        self.sample(initial=True)

    def sample(self, *, initial: bool = False) -> None:
        parts = self.services.pids()
        parts["postgres"] = postgres_backends(self.database)
        for part, pids in parts.items():
            for pid in pids:
                used = cpu_seconds(pid)
                if used is None:
                    continue
                if pid not in self.first:
                    self.first[pid] = used if initial else 0.0
                self.last[pid] = (part, used)
        now = time.monotonic()
        self.timeline.append((now, self.used()))
        with contextlib.suppress(OSError), open("/proc/stat") as stat:
            jiffies = [int(value) for value in stat.readline().split()[1:]]
            idle = jiffies[3] + (jiffies[4] if len(jiffies) > 4 else 0)  # idle + iowait
            self.machine.append((now, sum(jiffies) - idle, sum(jiffies)))

    def used(self) -> dict[str, float]:
        """CPU seconds by part since the first sample."""
        used: dict[str, float] = {}
        for pid, (part, seconds) in self.last.items():
            used[part] = used.get(part, 0.0) + seconds - self.first[pid]
        return used

    def since(self, moment: float) -> tuple[dict[str, float], float]:
        """CPU seconds by part from the first sample at or after ``moment`` (monotonic) to
        the last, and the seconds between those samples."""
        return self.between(moment, float("inf"))

    def between(self, begin: float, end: float) -> tuple[dict[str, float], float]:
        """CPU seconds by part between the first and last samples in [begin, end), and
        the seconds between them."""
        inside = [(at, used) for at, used in self.timeline if begin <= at < end]
        if len(inside) < 2:
            return {}, 0.0
        (first_at, first), (last_at, last) = inside[0], inside[-1]
        return {part: last[part] - first.get(part, 0.0) for part in last}, last_at - first_at

    def machine_busy(self, begin: float, end: float) -> float | None:
        """How busy the whole machine was in [begin, end), 0 to 1: the server, the
        simulated trainees beside it and the kernel."""
        inside = [sample for sample in self.machine if begin <= sample[0] < end]
        if len(inside) < 2 or inside[-1][2] == inside[0][2]:
            return None
        return (inside[-1][1] - inside[0][1]) / (inside[-1][2] - inside[0][2])

    def run(self) -> None:
        while self.running:
            time.sleep(1)
            self.services.supervise()
            self.sample()

    def stop(self) -> dict[str, float]:
        self.running = False
        self.join()
        self.sample()
        return self.used()


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def scratch_database(url: str, name: str, *, drop_only: bool = False) -> str:
    """DATABASE_URL's server with a fresh database ``name`` (dropped first if there; only
    dropped with ``drop_only``)."""
    import psycopg

    if "floor" not in name and "bench" not in name:
        raise SystemExit(f"--database {name!r}: the bench drops it, so its name must say floor")
    parts = urlsplit(url)
    maintenance = urlunsplit(parts._replace(path="/postgres", scheme="postgresql"))
    with psycopg.connect(maintenance, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            connection.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}"))


def production_environment(
    database_url: str, folder: Path, args: argparse.Namespace
) -> dict[str, str]:
    """DJANGO_ENV=production with throwaway secrets, loopback only, fast recovery
    (bench.floor_settings: production's settings with the static files collected apart)."""
    credential_key = folder / "keys" / "credential-key.pem"
    try:
        from audit.services.credential_key import key_make
    except ImportError:  # a build from before credentials (issue #28), measured as "before"
        pass
    else:
        if not credential_key.exists():
            key_make(credential_key)
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bench.floor_settings",
        "DJANGO_ENV": "production",
        "SHOESCHOOL_FLOOR_STATIC": str(folder / "static"),
        "SECRET_KEY": secrets.token_urlsafe(50),
        "SHOESCHOOL_LEDGER_ANCHOR_KEY": secrets.token_hex(32),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": database_url,
        "SHOESCHOOL_DATA_DIR": str(folder / "var"),
        # Out of the data folder, as production requires (ledger.checks): on a real site,
        # another host's mount or WORM storage.
        "SHOESCHOOL_LEDGER_ANCHOR_FILE": str(folder / "anchors" / "ledger-anchors.jsonl"),
        # The credentials' signing key, kept out of the data folder as production's is.
        "SHOESCHOOL_CREDENTIAL_KEY_FILE": str(credential_key),
        "SHOESCHOOL_PUBLIC_URL": "https://127.0.0.1",
        # A killed worker's message comes back after this (production's 300 s by default);
        # its run is queued again before, by the sweep, after the grading timeout.
        "CELERY_VISIBILITY_TIMEOUT": str(args.visibility_timeout),
        "SHOESCHOOL_GRADING_TIMEOUT_SECONDS": str(args.grading_timeout),
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    }


def make_trainees(size: int, tag: str, rounds: int) -> list[dict[str, Any]]:
    """``size`` trainee accounts, each assigned a practice drill (as setup_demo does)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import Group

    from bench.common import library_drill
    from core.roles import Role
    from teaching.services.assignments import assignment_create
    from trainer.models import Mode

    users = get_user_model()
    # One hash for all: hashing each password would take minutes at 200.
    hashed = make_password(PASSWORD)
    boss, _ = users.objects.get_or_create(username="floor-pitboss")
    boss.groups.add(Group.objects.get(name=Role.ADMIN.value))
    drill = library_drill(rounds, tag)
    trainee_group = Group.objects.get(name=Role.TRAINEE.value)
    out = []
    for n in range(1, size + 1):
        user = users.objects.create(username=f"{tag}-{n:03d}", password=hashed)
        user.groups.add(trainee_group)
        assignment = assignment_create(
            drill=drill, mode=Mode.PRACTICE, assigned_by=boss, trainee=user
        )
        out.append({"username": user.username, "drill": drill.pk, "assignment": assignment.pk})
    return out


def runs_in_flight() -> dict[int, str]:
    """The grading runs not finished yet, by id: their status (pending or grading)."""
    from trainer.models import GradingRun, RunStatus

    waiting = GradingRun.objects.filter(status__in=[RunStatus.PENDING, RunStatus.GRADING])
    return dict(waiting.values_list("pk", "status"))


def fault_report(services: Services) -> None:
    """How long the runs in flight at the fault took from the fault to graded, beside the
    configured bound in which a dead worker's runs are queued again."""
    from datetime import UTC, datetime

    from trainer.models import GradingRun
    from trainer.services.grading.lease import grading_lease
    from trainer.services.grading.lease import grading_sweep_interval as sweep

    if services.fault_at is None:
        return
    at = datetime.fromtimestamp(services.fault_at, UTC)
    runs = GradingRun.objects.filter(pk__in=list(services.in_flight), finished_at__gt=at)
    took = {
        pk: (done - at).total_seconds()
        for pk, done in runs.values_list("pk", "finished_at")
        if done is not None
    }
    started = [pk for pk, status in services.in_flight.items() if status == "grading"]
    # The servers' settings (the lease and the sweep are production's; the timeout is
    # --grading-timeout): trainer.services.grading.lease.grading_fault_bound.
    lease, timeout = grading_lease().total_seconds(), float(services.args.grading_timeout)
    bound = max(lease, timeout) + sweep().total_seconds()
    pending = len(services.in_flight) - len(started)
    print(
        f"fault: {len(services.in_flight)} runs in flight ({len(started)} being graded, "
        f"{pending} pending); {len(took)} graded after it"
    )
    waiting = [pk for pk, status in services.in_flight.items() if status != "grading"]
    for name, ids in (
        ("being graded", started),
        ("pending", waiting),  # received by the dead worker, or still in the broker
        ("all in flight", list(services.in_flight)),
    ):
        seconds = [took[pk] for pk in ids if pk in took]
        if seconds:
            print(
                f"  fault to graded, {name}: p50 {percentile(seconds, 50):.1f} s, "
                f"p95 {percentile(seconds, 95):.1f} s, max {max(seconds):.1f} s"
            )
    print(
        "  configured bound for a dead worker's runs to be queued again: started, lease "
        f"{lease:.0f} s; received and not started (still pending), grading timeout "
        f"{timeout:.0f} s; + sweep every {sweep().total_seconds():.0f} s = {bound:.0f} s "
        "(then graded as the queue allows)"
    )
    services.fault_at = None


def wait_for_submission(until: float) -> None:
    """Until some attempt waits for grading, or the monotonic time ``until``."""
    from trainer.models import Attempt, GradingStatus

    waiting = (GradingStatus.PENDING, GradingStatus.GRADING)
    while time.monotonic() < until:
        if Attempt.objects.filter(grading_status__in=waiting).exists():
            return
        time.sleep(0.2)


def wait_for_grading(attempt_ids: list[int], seconds: float, services: Services) -> list[int]:
    """Submitted attempts not graded after waiting up to ``seconds``."""
    from trainer.models import Attempt, GradingStatus

    end = time.monotonic() + seconds
    while True:
        left = list(
            Attempt.objects.filter(pk__in=attempt_ids)
            .exclude(grading_status=GradingStatus.GRADED)
            .values_list("pk", flat=True)
        )
        if not left or time.monotonic() > end:
            return left
        services.supervise()
        time.sleep(2)


def reconcile(
    load: dict[str, Any], env: dict[str, str], grace: float, services: Services
) -> list[str]:
    """Print the reconciliation; the failures, if any."""
    from django.db.models import Count

    from ledger.events import Event
    from ledger.models import LedgerEntry
    from trainer.models import Attempt, Decision

    attempts = {int(key): value for key, value in load["attempts"].items()}
    ids = list(attempts)
    accepted = {(a, p, q) for a, r in attempts.items() for p, q in r["accepted"]}
    unconfirmed = {(a, p, q) for a, r in attempts.items() for p, q in r["unconfirmed"]}
    rows = Decision.objects.filter(item__attempt_id__in=ids).values_list(
        "pk", "item__attempt_id", "item__position", "question"
    )
    stored = {(a, p, q): pk for pk, a, p, q in rows}
    missing = accepted - set(stored)
    extra = set(stored) - accepted - unconfirmed
    unseen = (set(stored) - accepted) & unconfirmed
    entries = Counter(
        dict(
            LedgerEntry.objects.filter(event=Event.DECISION_RECORDED, payload__attempt__in=ids)
            .values_list("subject_id")
            .annotate(n=Count("pk"))
            .values_list("subject_id", "n")
        )
    )
    decision_ids = {str(pk) for pk in stored.values()}
    doubled = [s for s, n in entries.items() if n > 1]
    no_entry = decision_ids - set(entries)
    stray = set(entries) - decision_ids
    submitted = [a for a, r in attempts.items() if r["submitted"]]
    ungraded = wait_for_grading(submitted, grace, services)
    graded = Attempt.objects.filter(pk__in=submitted, graded_at__isnull=False)
    latency = [
        (a.graded_at - a.submitted_at).total_seconds()
        for a in graded
        if a.graded_at and a.submitted_at
    ]
    verify = subprocess.run(
        [sys.executable, "manage.py", "verify_audit_log"],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    errors_500 = int(load["statuses"].get("500", 0))

    print("reconciliation")
    print(f"  answers accepted (2xx) by the clients  {len(accepted):7d}")
    print(f"  decisions stored for those attempts    {len(stored):7d}")
    print(f"    accepted but not stored (lost)       {len(missing):7d}")
    print(f"    stored, never told to a client       {len(extra):7d}")
    print(f"    stored from a request that died      {len(unseen):7d} (retried, then confirmed)")
    print(f"  decision entries in the ledger         {sum(entries.values()):7d}")
    print(f"    decisions with two or more entries   {len(doubled):7d}")
    print(f"    decisions with no entry              {len(no_entry):7d}")
    print(f"    entries for no stored decision       {len(stray):7d}")
    print(f"  attempts submitted                     {len(submitted):7d}")
    print(f"    not graded after {grace:.0f} s{'':16}{len(ungraded):7d}")
    if latency:
        print(
            f"    submit to graded (database) p50 {percentile(latency, 50):.2f} s, "
            f"p95 {percentile(latency, 95):.2f} s, max {max(latency):.2f} s"
        )
    print(f"  verify_audit_log: {'ok' if verify.returncode == 0 else 'FAILED'}")
    for line in (verify.stdout + verify.stderr).strip().splitlines()[-3:]:
        print(f"    {line}")
    failures = []
    checks = [
        (missing, "accepted answers not stored"),
        (extra, "decisions stored that no client was told of"),
        (doubled, "decisions with more than one ledger entry"),
        (no_entry, "decisions with no ledger entry"),
        (stray, "ledger decision entries for no stored decision"),
        (ungraded, "submitted attempts not graded"),
    ]
    for found, what in checks:
        if found:
            failures.append(f"{len(found)} {what}")
    if verify.returncode != 0:
        failures.append("verify_audit_log failed")
    if errors_500:
        failures.append(f"{errors_500} responses were 500 (a bug, never an outage)")
    if not accepted:
        failures.append("no answer was accepted at all")
    return failures


def _latencies(samples: dict[str, list[float]], title: str) -> None:
    print(f"{title:10} {'n':>6} {'p50':>8} {'p95':>8} {'p99':>8} (ms)")
    for name in ("login", "start", "question", "answer", "submit", "results"):
        values = samples.get(name, [])
        if values:
            print(
                f"{name:10} {len(values):6d} {percentile(values, 50):8.1f} "
                f"{percentile(values, 95):8.1f} {percentile(values, 99):8.1f}"
            )


def _waves(
    samples: dict[str, list[float]],
    ended: dict[str, list[float]],
    signed_in: float,
    began: float,
    meter: CpuMeter,
    step: float = 10.0,
) -> None:
    """After sign-in, by ``step`` seconds of the run (when a request was sent): the
    requests, the answers' latency, the server's cores busy and the whole machine's share
    busy (the simulated trainees run beside the server). A class that signed in
    together starts, submits and is graded together: the answers' p95 is made in these
    waves, not spread over the run."""
    sent: dict[int, list[tuple[str, float]]] = {}
    for name, values in samples.items():
        if name == "login":
            continue
        for ms, at in zip(values, ended.get(name, []), strict=True):
            moment = at - ms / 1000
            if moment > signed_in:
                sent.setdefault(int((moment - signed_in) // step), []).append((name, ms))
    if not sent:
        return
    print(f"after sign-in, by {step:.0f} s (when sent):")
    heads = (
        ("requests", 9), ("starts", 7), ("answer p50", 11), ("p95", 7), ("cores", 6),
        ("machine", 8),
    )  # fmt: skip
    print(f"{'seconds':>10} " + " ".join(f"{head:>{width}}" for head, width in heads))
    for window in range(max(sent) + 1):
        rows = sent.get(window, [])
        answers = [ms for name, ms in rows if name == "answer"]
        starts = sum(1 for name, _ in rows if name == "start")
        begin = began + signed_in + window * step
        used, span = meter.between(begin, begin + step)
        cores = f"{sum(used.values()) / span:6.2f}" if span else f"{'-':>6}"
        busy = meter.machine_busy(begin, begin + step)
        machine = f"{100 * busy:7.0f}%" if busy is not None else f"{'-':>8}"
        p50 = f"{percentile(answers, 50):11.0f}" if answers else f"{'-':>11}"
        p95 = f"{percentile(answers, 95):7.0f}" if answers else f"{'-':>7}"
        label = f"+{window * step:.0f}-{(window + 1) * step:.0f}"
        print(f"{label:>10} {len(rows):9d} {starts:7d} {p50} {p95} {cores} {machine}")


def report(
    load: dict[str, Any], cpu: dict[str, float], wall: float, client_cpu: float, meter: CpuMeter
) -> None:
    samples = load["samples"]
    _latencies(samples, "request")
    # The same once every trainee has signed in: a sign-in hashes the password (about
    # 0.3 s of a core, on purpose), so a class signing in at once is its own load.
    ended = load.get("ended", {})
    if ended.get("login") and len(ended["login"]) == len(samples.get("login", [])):
        signed_in = max(ended["login"])
        # Requests sent after the last sign-in ended: one sent during the sign-ins waited
        # behind them, whenever it ended.
        steady = {
            name: [
                ms
                for ms, at in zip(values, ended.get(name, []), strict=True)
                if at - ms / 1000 > signed_in
            ]
            for name, values in samples.items()
            if name != "login"
        }
        print(f"sent after every trainee signed in ({signed_in:.0f} s into the run):")
        _latencies(steady, "request")
        steady_answers = len(steady.get("answer", []))
        used, span = meter.since(load["began"] + signed_in) if "began" in load else ({}, 0.0)
        if steady_answers and span:
            # Issue #29's measure without the sign-ins (a password hash each, on purpose):
            # what answering costs the server once the class is at the table.
            total = sum(used.values())
            print(
                f"server CPU per accepted answer after sign-in: "
                f"{1000 * total / steady_answers:.1f} ms (gunicorn "
                f"{1000 * used.get('gunicorn', 0.0) / steady_answers:.1f} ms; "
                f"{total / span:.2f} cores busy over {span:.0f} s)"
            )
        if "began" in load:
            _waves(samples, ended, signed_in, load["began"], meter)
    answers = len(samples.get("answer", []))
    print(f"answers accepted per second: {answers / wall:.1f}")
    polled = load["polled"]
    if polled:
        print(f"submit to graded, seen by polling clients: p95 {percentile(polled, 95):.2f} s")
    errors = load["errors"]
    print(f"errors: {sum(errors.values()) or 'none'}")
    for kind, n in sorted(errors.items()):
        print(f"  {n:6d}  {kind}")
    statuses = ", ".join(f"{code}: {n}" for code, n in sorted(load["statuses"].items()))
    print(f"responses by status: {statuses}  (0 = no response: the connection failed)")
    total = sum(cpu.values())
    parts = ", ".join(f"{part} {seconds:.1f}" for part, seconds in sorted(cpu.items()))
    print(f"server CPU over {wall:.0f} s: {total:.1f} s ({parts})")
    print(
        f"  = {total / wall:.2f} cores busy of {CORES} ({100 * total / wall / CORES:.0f}% of "
        f"the machine); load average {os.getloadavg()[0]:.2f}"
    )
    if answers:
        # Issue #29's measure: everything the server ran (sign-ins, questions, grading,
        # PostgreSQL) over the answers it accepted; gunicorn's share is the web requests'.
        web = cpu.get("gunicorn", 0.0)
        print(
            f"server CPU per accepted answer: {1000 * total / answers:.1f} ms "
            f"(gunicorn {1000 * web / answers:.1f} ms)"
        )
    print(f"the simulated trainees (locust, same machine) used {client_cpu:.1f} s of CPU")


def run_size(
    size: int, args: argparse.Namespace, services: Services, env: dict[str, str], folder: Path
) -> list[str]:
    tag = f"floor-{size}-{time.time_ns() % 10**8}"
    trainees = make_trainees(size, tag, args.rounds)
    spec = {
        "origin": f"http://127.0.0.1:{services.web_port}",
        "trainees": trainees,
        "password": PASSWORD,
        "duration": args.duration,
        "think": args.think,
        "poll": args.poll,
        "ramp": args.ramp,
    }
    spec_file, out_file = folder / f"spec-{size}.json", folder / f"load-{size}.json"
    spec_file.write_text(json.dumps(spec))
    print(f"\n== {size} simulated trainees, {args.duration:.0f} s, think {args.think} s"
          f"{', fault: ' + args.fault if args.fault else ''}")  # fmt: skip
    services.warm()
    meter = CpuMeter(services, urlsplit(env["DATABASE_URL"]).path.lstrip("/"))
    meter.start()
    began = time.monotonic()
    children_before = os.times()
    client = subprocess.Popen(
        [sys.executable, str(ROOT / "bench" / "floor_load.py"), str(spec_file), str(out_file)],
        cwd=ROOT,
    )
    if args.fault:
        at = args.duration / 2 if args.fault_at is None else args.fault_at
        time.sleep(at)
        # Grading in flight when a part goes, if the trainees get that far.
        wait_for_submission(began + args.duration - 2)
        print(f"fault at {time.monotonic() - began:.0f} s: {services.fault(args.fault)}")
    client.wait(timeout=args.duration + 180)
    wall = time.monotonic() - began
    cpu = meter.stop()
    if client.returncode != 0:
        return [f"the load process failed (exit {client.returncode})"]
    load = json.loads(out_file.read_text())
    children_after = os.times()
    # The only children this process waits for meanwhile are the load process's.
    client_cpu = (children_after.children_user - children_before.children_user) + (
        children_after.children_system - children_before.children_system
    )
    report(load, cpu, wall, client_cpu, meter)
    failures = reconcile(load, env, args.grace, services)
    fault_report(services)
    for restart in services.restarts:
        print(f"  supervisor: {restart}, started again")
    services.restarts.clear()
    return failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[25, 50, 100, 200])
    parser.add_argument("--duration", type=float, default=120, help="seconds per size")
    parser.add_argument("--think", type=float, nargs=2, default=[2.0, 5.0], metavar=("MIN", "MAX"))
    parser.add_argument("--rounds", type=int, default=10, help="rounds in the practice drill")
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between result polls")
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds to start every user")
    parser.add_argument("--fault", choices=["web", "worker", "redis"])
    parser.add_argument(
        "--fault-at", type=float, help="seconds into each run (half the duration by default)"
    )
    parser.add_argument("--web-workers", type=int, default=4)
    parser.add_argument(
        "--web-threads", type=int, default=1, help="gunicorn threads per worker (gthread if >1)"
    )
    parser.add_argument("--concurrency", type=int, default=CORES, help="Celery pool processes")
    parser.add_argument(
        "--worker-nice", type=int, default=0, help="run the Celery worker at this niceness"
    )
    parser.add_argument("--database", default="floor_bench", help="scratch database (dropped)")
    parser.add_argument("--visibility-timeout", type=int, default=300)
    parser.add_argument("--grading-timeout", type=int, default=10)
    parser.add_argument("--grace", type=float, default=150, help="seconds to wait for grading")
    args = parser.parse_args(argv)

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        print("the floor bench needs PostgreSQL: set DATABASE_URL=postgres://...", file=sys.stderr)
        return 2
    if shutil.which("redis-server") is None:
        print("the floor bench needs redis-server (Debian's redis-server)", file=sys.stderr)
        return 2
    folder = Path(tempfile.mkdtemp(prefix="shoeschool-floor-"))
    env = production_environment(scratch_database(url, args.database), folder, args)
    services = Services(env, folder, args)
    os.environ.clear()
    os.environ.update(env)
    import django
    from django.core.management import call_command

    django.setup()
    print(f"floor bench: logs and files in {folder}")
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    failures: dict[int, list[str]] = {}
    try:
        services.start()
        for size in args.sizes:
            failed = run_size(size, args, services, env, folder)
            print("PASS" if not failed else "FAIL: " + "; ".join(failed))
            failures[size] = failed
    finally:
        services.stop()
    bad = {size: f for size, f in failures.items() if f}
    if bad:
        print(f"\nfloor bench FAILED at sizes {sorted(bad)}")
        return 1
    print(f"\nfloor bench passed: sizes {args.sizes}, reconciliation clean")
    return 0


if __name__ == "__main__":
    sys.exit(main())
