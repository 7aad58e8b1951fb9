"""A live class session under a room of trainees, against a local server.

usage: python bench/live_session.py [--trainees 40] [--questions 4] [--wrong 0.2]
           [--think 2 5] [--production | --base-url http://127.0.0.1:PORT]

Without --base-url it makes a scratch SQLite database of its own (or uses DATABASE_URL),
migrates it and starts the development server on a free port of 127.0.0.1 (the embedded
defaults scripts/run uses; set DATABASE_URL and CELERY_BROKER_URL for PostgreSQL and
Redis). With --production it starts production's set-up instead, as bench/floor.py does
(DJANGO_ENV=production, gunicorn's sync workers, a prefork Celery worker, beat and a
redis-server of its own) on a scratch database of DATABASE_URL's PostgreSQL server,
dropped after. It makes the trainees, their class, its instructor and a drill in that
database, then drives everything over HTTP as the pages do: the instructor signs in and
opens the session and each question; every trainee signs in through the login page, joins
from My training's button, polls its seat's status about once a second as the page does,
and when its question opens looks at the table for --think seconds (uniformly between
MIN and MAX; 0 0 answers at once) and answers through the API's answer path, as a client
would; the instructor's status is polled twice a second as the projector page does, and
closes, shows and goes on once every answer is in.

It prints: every answer accepted within its question's window (none refused, none after the
close), the answers' p50/p95/max, how far behind the instructor's count ran (for each
accepted answer, from the moment it was accepted to the first poll that counted it), and a
reconciliation: answers accepted = decisions in the session = decision.recorded ledger
entries = the room's counts kept at each close, every attempt submitted at the end.
Exits 1 if any check fails."""

from __future__ import annotations

import argparse
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http.cookiejar import DefaultCookiePolicy
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PASSWORD = "live-bench-password"  # noqa: S105 - throwaway accounts in a scratch database
POLL = 1.0  # a trainee's seat polls about once a second
INSTRUCTOR_POLL = 0.5  # the projector page twice a second: its counts at most ~0.5 s behind
WINDOW = 60.0  # the longest a question is left open waiting for the room


class LoopbackTLS(DefaultCookiePolicy):
    """Production marks its cookies Secure, which a cookie jar keeps from an http:// URL:
    the bench stands behind no TLS proxy, says it does (X-Forwarded-Proto), and sends them."""

    def return_ok_secure(self, cookie: Any, request: Any) -> bool:
        return True


class LoopbackTLSBrowser(requests.Session):
    """A browser behind a pretended TLS proxy. requests prepares each request's cookies
    from a new jar with the default policy (which drops Secure cookies over http://, the
    session's among them, on a redirect too): they come from this session's own jar."""

    def __init__(self) -> None:
        super().__init__()
        self.cookies.set_policy(LoopbackTLS())
        self.headers["X-Forwarded-Proto"] = "https"

    def prepare_request(self, request: requests.Request) -> requests.PreparedRequest:
        prepared = super().prepare_request(request)
        prepared.headers.pop("Cookie", None)
        prepared.prepare_cookies(self.cookies)
        return prepared


@dataclass(frozen=True)
class Site:
    """Where the bench's browsers go, and the scheme their pages say they came from."""

    url: str
    secure: bool = False

    def referer(self, path: str) -> str:
        return (self.url.replace("http://", "https://", 1) if self.secure else self.url) + path

    def browser(self) -> requests.Session:
        return LoopbackTLSBrowser() if self.secure else requests.Session()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    python = sys.executable
    subprocess.run(
        [python, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    port = free_port()
    server = subprocess.Popen(
        [python, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    end = time.monotonic() + 60
    while time.monotonic() < end:
        try:
            requests.get(f"{base}/healthz", timeout=2)
            return server, base
        except requests.RequestException:
            time.sleep(0.3)
    server.terminate()
    raise RuntimeError("the server did not start")


def signed_in(site: Site, username: str) -> requests.Session:
    browser = site.browser()
    browser.get(f"{site.url}/accounts/login/", timeout=30)
    token = browser.cookies["csrftoken"]
    answered = browser.post(
        f"{site.url}/accounts/login/",
        data={"csrfmiddlewaretoken": token, "username": username, "password": PASSWORD},
        headers={"Referer": site.referer("/accounts/login/")},
        timeout=30,
    )
    if "/accounts/login" in answered.url:
        raise RuntimeError(f"{username} could not sign in")
    return browser


def post_form(
    browser: requests.Session, site: Site, path: str, data: dict[str, Any]
) -> requests.Response:
    token = browser.cookies.get("csrftoken") or ""
    return browser.post(
        f"{site.url}{path}",
        data={"csrfmiddlewaretoken": token, **data},
        headers={"Referer": site.referer(path)},
        timeout=30,
    )


def setup(trainees: int, questions: int) -> dict[str, Any]:
    """The room in the server's database: trainees, their class and instructor, a drill."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import Group

    from bench.common import library_drill
    from trainer.models import TrainingClass

    users = get_user_model()
    tag = f"live{random.randrange(10**6)}"
    hashed = make_password(PASSWORD)
    boss = users.objects.create(username=f"{tag}-boss", password=hashed)
    boss.groups.add(Group.objects.get(name="pit_boss"))
    room = [users(username=f"{tag}-t{i:03d}", password=hashed) for i in range(trainees)]
    room = users.objects.bulk_create(room)
    trainee_group = Group.objects.get(name="trainee")
    for person in room:
        person.groups.add(trainee_group)
    group = TrainingClass.objects.create(name=f"Bench room {tag}")
    group.instructors.add(boss)
    group.trainees.add(*room)
    drill = library_drill(max(1, questions), tag)
    return {"boss": boss, "room": room, "class": group, "drill": drill}


class Room:
    """What the trainees' threads and the instructor share."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.accepted: list[tuple[int, float]] = []  # (question number, moment accepted)
        self.latencies: list[float] = []
        self.refused: list[str] = []
        self.seen: dict[int, list[tuple[float, int]]] = {}  # question → (moment, count)


def trainee_loop(
    site: Site,
    browser: requests.Session,
    seat: int,
    plan: list[dict[str, Any]],
    room: Room,
    args: argparse.Namespace,
    done: threading.Event,
) -> None:
    """Poll the seat's status as the page does; once a question opens, think, then answer
    it (the page keeps polling meanwhile)."""
    version = None
    answered: set[int] = set()
    pending: tuple[dict[str, Any], float] | None = None  # the question, when it is answered
    by_place = {(step["position"], step["n"]): step for step in plan}
    token = browser.cookies.get("csrftoken") or ""
    rng = random.Random(seat)
    next_poll = time.monotonic()
    while not done.is_set() and len(answered) < len(plan):
        if time.monotonic() >= next_poll:
            next_poll = time.monotonic() + POLL
            status = browser.get(f"{site.url}/train/live/{seat}/status", timeout=30).json()
            if status["version"] != version:
                # The page is drawn again: ask, as it does, which question is open.
                version = status["version"]
                asked = browser.get(f"{site.url}/api/attempts/{seat}/question", timeout=30)
                question = asked.json().get("question")
                step = by_place.get((question["position"], question["n"])) if question else None
                if step is not None and step["number"] not in answered and pending is None:
                    pending = (step, time.monotonic() + rng.uniform(*args.think))
        if pending is not None and time.monotonic() >= pending[1]:
            step, pending = pending[0], None
            answer = step["expected"] if rng.random() >= args.wrong else step["wrong"]
            body = {"position": step["position"], "question": step["n"], "answer": answer}
            start = time.monotonic()
            sent = browser.post(
                f"{site.url}/api/attempts/{seat}/answers",
                json=body,
                headers={"X-CSRFToken": token, "Referer": site.referer(f"/train/live/{seat}/")},
                timeout=30,
            )
            now = time.monotonic()
            with room.lock:
                room.latencies.append((now - start) * 1000)
                if sent.status_code == 201:
                    room.accepted.append((step["number"], now))
                else:
                    room.refused.append(f"{sent.status_code} {sent.text[:80]}")
            answered.add(step["number"])
        due = next_poll if pending is None else min(next_poll, pending[1])
        time.sleep(max(0.0, min(POLL, due - time.monotonic())))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trainees", type=int, default=40)
    parser.add_argument("--questions", type=int, default=4)
    parser.add_argument("--wrong", type=float, default=0.2)
    parser.add_argument(
        "--think", type=float, nargs=2, default=[2.0, 5.0], metavar=("MIN", "MAX"),
        help="seconds a trainee looks at the table before answering (0 0: at once)",
    )  # fmt: skip
    parser.add_argument(
        "--production", action="store_true",
        help="gunicorn, a Celery worker and Redis with production's settings, as the floor "
        "bench starts them (needs DATABASE_URL=postgres://... and redis-server)",
    )  # fmt: skip
    parser.add_argument("--web-workers", type=int, default=4, help="gunicorn's (--production)")
    parser.add_argument("--base-url", default="")
    args = parser.parse_args()
    if args.production:
        return production(args)

    env = dict(os.environ)
    env.setdefault("DJANGO_ENV", "development")
    if "DATABASE_URL" not in env:
        env["SHOESCHOOL_DATA_DIR"] = tempfile.mkdtemp(prefix="shoeschool-bench-live-")
    os.environ.update(env)
    server = None
    base = args.base_url
    if not base:
        server, base = serve(env)
    try:
        return run(Site(base), args)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)


def production(args: argparse.Namespace) -> int:
    """The session against production's set-up (bench.floor's services: gunicorn's sync
    workers, a prefork Celery worker, beat and a Redis of their own) on a scratch database."""
    from bench.floor import Services, children, production_environment, scratch_database

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        print("--production needs PostgreSQL: set DATABASE_URL=postgres://...", file=sys.stderr)
        return 2
    settings = argparse.Namespace(
        web_workers=args.web_workers, web_threads=1, concurrency=2,
        visibility_timeout=300, grading_timeout=10,
    )  # fmt: skip
    folder = Path(tempfile.mkdtemp(prefix="shoeschool-bench-live-"))
    env = production_environment(scratch_database(url, "live_session_bench"), folder, settings)
    services = Services(env, folder, settings)
    os.environ.clear()
    os.environ.update(env)
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    try:
        services.start()
        # gunicorn forks its workers after it binds: warm them all, not the first alone.
        began = time.monotonic()
        while len(children(services.procs["gunicorn"].pid)) < args.web_workers:
            if time.monotonic() - began > 60:
                break
            time.sleep(0.2)
        services.warm()
        print(f"production set-up: gunicorn {args.web_workers} sync workers; files in {folder}")
        return run(Site(f"http://127.0.0.1:{services.web_port}", secure=True), args)
    finally:
        services.stop()
        from django.db import connections

        connections.close_all()
        scratch_database(url, "live_session_bench", drop_only=True)


def run(site: Site, args: argparse.Namespace) -> int:
    room_rows = setup(args.trainees, args.questions)
    from ledger.events import Event
    from ledger.models import LedgerEntry
    from trainer.games import game_named
    from trainer.models import Attempt, AttemptStatus, Decision, LiveSession

    boss = signed_in(site, room_rows["boss"].username)
    opened = post_form(
        boss,
        site,
        "/teach/live/",
        {"training_class": room_rows["class"].pk, "drill": room_rows["drill"].pk},
    )
    found = re.search(r"/teach/live/(\d+)/", opened.url)
    if found is None:
        print("the session did not open:", opened.status_code)
        return 1
    session = LiveSession.objects.get(pk=int(found.group(1)))
    game = game_named(session.drill.game)
    rng = random.Random(27)
    plan = []
    for question in session.questions.order_by("number")[: args.questions]:
        key = next(
            k for k in session.rounds[question.position - 1]["answer_key"] if k["n"] == question.n
        )
        plan.append(
            {
                "number": question.number,
                "position": question.position,
                "n": question.n,
                "expected": key["expected"],
                "wrong": game.demo_answer(key, rng=rng, right=False),
            }
        )

    with ThreadPoolExecutor(max_workers=8) as pool:
        browsers = list(
            pool.map(lambda person: signed_in(site, person.username), room_rows["room"])
        )
    seats = []
    for browser in browsers:
        joined = post_form(browser, site, "/train/live/", {"session": session.pk})
        seats.append(int(re.search(r"/train/live/(\d+)/", joined.url).group(1)))  # type: ignore[union-attr]
    print(f"{len(seats)} trainees joined session {session.code} at {site.url}")

    room = Room()
    done = threading.Event()
    threads = [
        threading.Thread(
            target=trainee_loop, args=(site, b, s, plan, room, args, done), daemon=True
        )
        for b, s in zip(browsers, seats, strict=True)
    ]
    for thread in threads:
        thread.start()
    for step in plan:
        post_form(boss, site, f"/teach/live/{session.pk}/open/", {})
        opened_at = time.monotonic()
        seen = room.seen.setdefault(step["number"], [])
        while time.monotonic() - opened_at < WINDOW:
            count = boss.get(f"{site.url}/teach/live/{session.pk}/status", timeout=30).json()[
                "answered"
            ]
            seen.append((time.monotonic(), count))
            if count >= len(seats):
                break
            time.sleep(INSTRUCTOR_POLL)
        post_form(boss, site, f"/teach/live/{session.pk}/close/", {})
        post_form(boss, site, f"/teach/live/{session.pk}/reveal/", {})
        if step is not plan[-1]:
            post_form(boss, site, f"/teach/live/{session.pk}/next/", {})
    done.set()
    post_form(boss, site, f"/teach/live/{session.pk}/end/", {})
    for thread in threads:
        thread.join(timeout=30)

    # How far behind the instructor's count ran: each accepted answer to the first poll
    # that counted it.
    lags = []
    for number, _ in enumerate(plan, start=1):
        moments = sorted(moment for q, moment in room.accepted if q == number)
        polls = room.seen.get(number, [])
        for k, accepted_at in enumerate(moments, start=1):
            counted = next((m for m, c in polls if c >= k and m >= accepted_at), None)
            if counted is not None:
                lags.append(counted - accepted_at)
    expected_answers = len(seats) * len(plan)
    # Within the window by the server's clock: each decision recorded between its
    # question's opening and its close, as the database holds them.
    decisions = Decision.objects.filter(item__attempt__live_session=session)
    window = {(q.position, q.n): (q.opened_at, q.closed_at) for q in session.questions.all()}
    in_window = 0
    for position, n, answered_at in decisions.values_list(
        "item__position", "question", "answered_at"
    ):
        began, ended = window[(position, n)]
        if began is not None and ended is not None and began <= answered_at <= ended:
            in_window += 1
    decision_ids = [str(pk) for pk in decisions.values_list("pk", flat=True)]
    ledgered = LedgerEntry.objects.filter(
        event=Event.DECISION_RECORDED, subject_id__in=decision_ids
    ).count()
    tallied = sum(q.tally.get("answered", 0) for q in session.questions.all())
    submitted = Attempt.objects.filter(live_session=session, status=AttemptStatus.SUBMITTED).count()

    accepted = len(room.accepted)
    p50, p95 = percentile(room.latencies, 0.5), percentile(room.latencies, 0.95)
    print(
        f"answers accepted: {accepted} of {expected_answers}, "
        f"within the window: {in_window}, refused: {len(room.refused)}"
    )
    for refusal in room.refused[:5]:
        print("  refused:", refusal)
    print(f"answer ms: p50 {p50:.0f}, p95 {p95:.0f}, max {max(room.latencies, default=0):.0f}")
    print(
        f"instructor's count behind by s: p95 {percentile(lags, 0.95):.2f}, "
        f"max {max(lags, default=0):.2f} (polled every {INSTRUCTOR_POLL:.1f} s)"
    )
    print(
        f"reconciliation: accepted {accepted} = decisions {decisions.count()} = "
        f"ledger entries {ledgered} = counted at the closes {tallied}; "
        f"attempts submitted {submitted} of {len(seats)}"
    )
    checks = [
        len(room.accepted) == expected_answers,
        in_window == expected_answers,
        not room.refused,
        len(room.accepted) == decisions.count() == ledgered == tallied,
        submitted == len(seats),
    ]
    print("all checks passed" if all(checks) else "A CHECK FAILED")
    return 0 if all(checks) else 1


if __name__ == "__main__":
    sys.exit(main())
