"""The simulated trainees of the floor bench (bench/floor.py runs this in a process of its own).

usage: python bench/floor_load.py SPEC.json OUT.json

Locust as a library, headless: one user per trainee of the spec signs in through the login
page, then until the spec's deadline takes practice attempts through the trainee API:
start (bringing back the first question), think, answer (each answer bringing back the next
question), ... submit, poll the results until graded.
It counts what the server accepted per attempt (2xx answers), what it may have written
unseen (an answer whose request died with the process serving it), every request's
latency and every error by kind, and writes them to OUT.json. Locust's gevent patching
stays in this process: the bench's own process talks to PostgreSQL undisturbed.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections import Counter, defaultdict
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlencode

import gevent
from locust import FastHttpUser, constant, events, task
from locust.env import Environment
from locust.exception import StopUser

# Statuses a client retries: the process serving it died or its upstream is down.
RETRIED = {0, 502, 503, 504}
RETRIES = 8

SPEC: dict[str, Any] = {}
SAMPLES: dict[str, list[float]] = defaultdict(list)
# When each sample's request ended (seconds since the load began), in SAMPLES' order.
ENDED: dict[str, list[float]] = defaultdict(list)
BEGAN = time.monotonic()
ERRORS: Counter[str] = Counter()
STATUSES: Counter[str] = Counter()
# attempt id -> {"accepted": [[position, question]], "unconfirmed": [...], "submitted": bool}
ATTEMPTS: dict[int, dict[str, Any]] = {}
POLLED: list[float] = []  # seconds from submit to "graded" seen by a polling client


@events.request.add_listener
def _on_request(
    request_type: str,
    name: str,
    response_time: float,
    response: Any,
    exception: BaseException | None,
    **_: Any,
) -> None:
    status = getattr(response, "status_code", 0) or 0
    STATUSES[f"{status}"] += 1
    if exception is not None and status == 0:
        ERRORS[f"{name}: connection ({type(exception).__name__})"] += 1
        return
    if 200 <= status < 400:
        SAMPLES[name].append(response_time)
        ENDED[name].append(round(time.monotonic() - BEGAN, 3))
        return
    code = ""
    try:
        code = response.json().get("code", "")
    except ValueError:  # an HTML or empty body has no code
        code = "not JSON"
    ERRORS[f"{name}: {status} {code}".rstrip()] += 1


def _cookies(response: Any) -> dict[str, str]:
    """The cookies a response set, read from its headers: the production settings mark
    them Secure, which a cookie jar keeps from an http:// URL (the bench stands behind
    no TLS proxy, so it says it does with X-Forwarded-Proto and carries them itself)."""
    jar: SimpleCookie = SimpleCookie()
    for header in response.headers.getlist("Set-Cookie") if response.headers else []:
        jar.load(header)
    return {name: morsel.value for name, morsel in jar.items()}


class Trainee(FastHttpUser):
    wait_time = constant(0)
    # A browser waits minutes for a page, not FastHttpUser's default minute: a sign-in
    # queued behind a whole class's is slow, not failed.
    network_timeout = 300.0
    connection_timeout = 300.0

    def on_start(self) -> None:
        self.me = SPEC["trainees"].pop()
        # The page the browser came from, as https: the CSRF check of a secure request reads it.
        referer = SPEC["origin"].replace("http://", "https://", 1) + "/accounts/login/"
        self.base = {"X-Forwarded-Proto": "https", "Referer": referer}
        self.jar: dict[str, str] = {}
        page = self._call("GET", "/accounts/login/", "login page")
        self.jar.update(_cookies(page))
        form = {
            "username": self.me["username"],
            "password": SPEC["password"],
            "csrfmiddlewaretoken": self.jar.get("csrftoken", ""),
        }
        signed = self._call("POST", "/accounts/login/", "login", data=form)
        if signed.status_code != 302:
            raise StopUser()
        self.jar.update(_cookies(signed))

    def _call(self, method: str, url: str, name: str, **kwargs: Any) -> Any:
        headers = {**self.base, "Cookie": "; ".join(f"{k}={v}" for k, v in self.jar.items())}
        if "csrftoken" in self.jar:
            headers["X-CSRFToken"] = self.jar["csrftoken"]
        if isinstance(kwargs.get("data"), dict):  # a form, as a browser posts it
            kwargs["data"] = urlencode(kwargs["data"])
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        # gunicorn's sync worker answers every request with "Connection: close", as the TLS
        # proxy in front of production expects, and then waits (up to 2 s) for the client
        # to close its side: the client opens a connection for each request and closes it
        # once the response is read. FastHttpUser (geventhttpclient), not HttpUser: the
        # simulated trainees share the server's two cores, and it spends a fraction of
        # requests' CPU a request.
        return self.client.request(
            method, url, name=name, headers=headers, allow_redirects=False, **kwargs
        )

    def _retried(self, method: str, url: str, name: str, **kwargs: Any) -> tuple[Any, int]:
        """The response and how many tries it took, retrying as a client would while a
        part is down; a 500 is never retried (it is our bug, and the bench fails on it)."""
        for tries in range(1, RETRIES + 1):
            response = self._call(method, url, name, **kwargs)
            if response.status_code not in RETRIED:
                return response, tries
            gevent.sleep(min(4.0, 0.25 * 2**tries))
        return response, RETRIES

    def _think(self) -> None:
        low, high = SPEC["think"]
        gevent.sleep(random.uniform(low, high))

    @task
    def practise(self) -> None:
        while time.monotonic() < SPEC["deadline"]:
            self._attempt()
        raise StopUser()

    def _attempt(self) -> None:
        body = {"drill": self.me["drill"], "mode": "practice", "assignment": self.me["assignment"]}
        started, _ = self._retried("POST", "/api/attempts/?next=question", "start", json=body)
        if started.status_code != 201:
            gevent.sleep(1)
            return
        attempt = started.json()["id"]
        record = ATTEMPTS.setdefault(
            attempt, {"accepted": [], "unconfirmed": [], "submitted": False}
        )
        url = f"/api/attempts/{attempt}"
        # The question asked now, as the start or the last answer brought it back
        # (?next=question), or None: then it is fetched. A build without `next` fetches
        # every question (one without it on the start, the first).
        following: dict[str, Any] | None = started.json().get("next")
        while time.monotonic() < SPEC["deadline"]:
            if following is None:
                shown, _ = self._retried("GET", f"{url}/question", "question")
                if shown.status_code != 200:
                    gevent.sleep(1)
                    continue
                following = shown.json()
            question = following["question"]
            following = None
            if question is None:
                break
            self._think()
            key = [question["position"], question["n"]]
            given = {"position": key[0], "question": key[1], "answer": answer_for(question)}
            answered, tries = self._retried(
                "POST", f"{url}/answers?next=question", "answer", json=given
            )
            if answered.status_code in (200, 201):
                record["accepted"].append(key)
                following = answered.json().get("next")
            elif tries > 1 or answered.status_code in RETRIED:
                # The first try may have been written before its process died.
                record["unconfirmed"].append(key)
        else:
            return  # the run ended with this attempt open: left in progress
        submitted, tries = self._retried("POST", f"{url}/submit", "submit")
        if submitted.status_code != 202 and tries > 1:
            # A retried submit refused as closed: the first try went through.
            detail, _ = self._retried("GET", f"{url}/", "attempt")
            if detail.status_code == 200 and detail.json()["status"] == "submitted":
                submitted = detail
        if submitted.status_code not in (200, 202):
            return
        record["submitted"] = True
        sent = time.monotonic()
        while time.monotonic() < SPEC["deadline"]:
            gevent.sleep(SPEC["poll"])
            results, _ = self._retried("GET", f"{url}/results", "results")
            if results.status_code == 200 and results.json()["status"] in ("graded", "failed"):
                POLLED.append(time.monotonic() - sent)
                break


def answer_for(question: dict[str, Any]) -> dict[str, Any]:
    """A well-formed answer, right or wrong as it falls: settle at the stake, or the
    first word offered (a peek that finds no natural)."""
    if "actions" in question:
        return {"action": "pay", "amount": question.get("stake") or "10"}
    word = question["answers"][0]
    answer: dict[str, Any] = {"answer": word}
    if question["kind"] == "peek" and word == "peek":
        answer["dealer_blackjack"] = False
    return answer


def main() -> None:
    spec_path, out_path = sys.argv[1], sys.argv[2]
    with open(spec_path) as spec:
        SPEC.update(json.load(spec))
    users = len(SPEC["trainees"])
    SPEC["deadline"] = time.monotonic() + SPEC["duration"]
    environment = Environment(user_classes=[Trainee], host=SPEC["origin"], events=events)
    runner = environment.create_local_runner()
    started = time.monotonic()
    runner.start(users, spawn_rate=max(1.0, users / max(1.0, SPEC["ramp"])))
    # Every user stops itself at the deadline, after the request it is in.
    gevent.sleep(1)
    while runner.user_count > 0 and time.monotonic() < SPEC["deadline"] + 60:
        gevent.sleep(0.5)
    runner.quit()
    out = {
        "users": users,
        "seconds": time.monotonic() - started,
        # The moment "ended" counts from, on the machine's monotonic clock (the server's
        # CPU samples are taken on the same clock, in the bench's process).
        "began": BEGAN,
        "samples": SAMPLES,
        "ended": ENDED,
        "errors": ERRORS,
        "statuses": STATUSES,
        "attempts": ATTEMPTS,
        "polled": POLLED,
    }
    with open(out_path, "w") as handle:
        json.dump(out, handle)


if __name__ == "__main__":
    main()
