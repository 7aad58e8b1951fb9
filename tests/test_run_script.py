"""The README's first command, run as a person would: start, log in, Ctrl-C."""

import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(url: str, seconds: float) -> bytes:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return bytes(response.read())
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def group_is_gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.worker
def test_the_run_command_serves_the_demo_and_stops_everything_on_ctrl_c(tmp_path):
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_ENV", "DJANGO_SETTINGS_MODULE"}
        and not k.startswith("PYTEST")
    }
    env |= {"SHOESCHOOL_DATA_DIR": str(tmp_path), "SHOESCHOOL_ADDRESS": f"127.0.0.1:{port}"}
    log = (tmp_path / "run.log").open("w")
    process = subprocess.Popen(
        ["bash", "scripts/run"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        health = wait_for(f"{base_url}/healthz", seconds=180)
        assert b'"status": "ok"' in health

        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        login_page = opener.open(f"{base_url}/accounts/login/").read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login_page)
        assert token, login_page
        form = urllib.parse.urlencode(
            {
                "username": "trainee",
                "password": "shoe-school-demo",
                "csrfmiddlewaretoken": token.group(1),
            }
        ).encode()
        home = opener.open(f"{base_url}/accounts/login/", data=form).read().decode()
        assert "Welcome, Terry Trainee" in home

        deadline = time.monotonic() + 60
        while "ready." not in (tmp_path / "run.log").read_text():
            assert time.monotonic() < deadline, "the Celery worker never said it was ready"
            time.sleep(0.5)
    finally:
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=60)
        finally:
            log.close()
    output = (tmp_path / "run.log").read_text()
    assert "Shoe School stopped." in output, output[-3000:]
    deadline = time.monotonic() + 30
    while not group_is_gone(process.pid):
        assert time.monotonic() < deadline, "something the run command started is still running"
        time.sleep(0.5)
