"""Issue #23, finding 8: the README's 0.0.0.0 example put the development mode (DEBUG, the
published keys, the demo admin and its published password) on the network. The development
server now refuses any address beyond this computer, and scripts/serve-network serves
tablets with production settings, secrets of its own kept in the data folder, and no demo
accounts."""

import http.cookiejar
import os
import re
import signal
import ssl
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from core.management.commands.runserver import is_loopback
from tests.test_run_script import free_port, group_is_gone

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import network_secrets  # noqa: E402


def clean_env(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "DATABASE_URL",
            "CELERY_BROKER_URL",
            "DJANGO_ENV",
            "DJANGO_SETTINGS_MODULE",
            "SECRET_KEY",
            "ALLOWED_HOSTS",
            "SHOESCHOOL_LEDGER_ANCHOR_KEY",
            "SHOESCHOOL_LEDGER_ANCHOR_FILE",
            # Set by the test run; the deployment check refuses it, as it should.
            "DJANGO_ALLOW_ASYNC_UNSAFE",
        }
        and not k.startswith("PYTEST")
    }
    return {**env, **extra}


def run(*command: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(command),
        cwd=ROOT,
        env=clean_env(**env),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("address", ["0.0.0.0:8000", "192.168.1.20:8000", "[::]:8000"])
def test_the_run_script_refuses_a_network_address(address, tmp_path):
    result = run(
        "bash", "scripts/run", SHOESCHOOL_ADDRESS=address, SHOESCHOOL_DATA_DIR=str(tmp_path)
    )
    assert result.returncode == 2
    assert "scripts/serve-network" in result.stderr
    assert not any(tmp_path.iterdir())  # refused before anything was made


@pytest.mark.parametrize("address", ["0.0.0.0:8123", "0:8123", "10.1.2.3:8123", "[::]:8123"])
def test_the_development_server_refuses_a_network_address(address):
    result = run(sys.executable, "manage.py", "runserver", address, "--noreload")
    assert result.returncode != 0
    assert "The development server listens only on this computer" in result.stderr
    assert "scripts/serve-network" in result.stderr


def test_loopback_addresses_are_this_computer_and_nothing_else():
    assert all(map(is_loopback, ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"]))
    every = "0.0.0.0"  # noqa: S104 - the address refused, not bound
    assert not any(map(is_loopback, [every, "0", "::", "10.0.0.1", "example.com"]))


def test_serving_every_interface_needs_the_host_names(tmp_path):
    result = run("bash", "scripts/serve-network", "0.0.0.0:8443", SHOESCHOOL_DATA_DIR=str(tmp_path))
    assert result.returncode == 2
    assert "needs ALLOWED_HOSTS" in result.stderr


def test_serving_needs_a_checkpoint_file_out_of_the_data_folder(tmp_path):
    result = run(
        "bash", "scripts/serve-network", "127.0.0.1:8443", SHOESCHOOL_DATA_DIR=str(tmp_path)
    )
    assert result.returncode == 2
    assert "set SHOESCHOOL_LEDGER_ANCHOR_FILE" in result.stderr
    assert not (tmp_path / "secret-key").exists()


def test_the_secrets_are_made_once_private_and_different(tmp_path):
    paths = network_secrets.ensure_all(tmp_path)
    values = {name: path.read_text().strip() for name, path in paths.items()}
    for path in paths.values():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert values["SECRET_KEY"] != values["SHOESCHOOL_LEDGER_ANCHOR_KEY"]
    assert all(len(value) >= 64 for value in values.values())
    # The next start reads the same secrets back: sessions and checkpoints stay valid.
    again = network_secrets.ensure_all(tmp_path)
    assert {name: path.read_text().strip() for name, path in again.items()} == values


def test_a_secret_others_may_read_or_too_short_is_refused(tmp_path):
    paths = network_secrets.ensure_all(tmp_path)
    paths["SECRET_KEY"].chmod(0o644)
    with pytest.raises(network_secrets.SecretError, match="chmod 600"):
        network_secrets.ensure_all(tmp_path)
    paths["SECRET_KEY"].chmod(0o600)
    paths["SECRET_KEY"].write_text("short\n")
    with pytest.raises(network_secrets.SecretError, match="fewer than 50 characters"):
        network_secrets.ensure_all(tmp_path)


@pytest.mark.worker
def test_serve_network_serves_production_over_https_without_demo_accounts(tmp_path):
    port = free_port()
    base_url = f"https://127.0.0.1:{port}"
    log = (tmp_path / "serve.log").open("w")
    (tmp_path / "elsewhere").mkdir()
    process = subprocess.Popen(
        ["bash", "scripts/serve-network", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=clean_env(
            SHOESCHOOL_DATA_DIR=str(tmp_path / "data"),
            SHOESCHOOL_LEDGER_ANCHOR_FILE=str(tmp_path / "elsewhere" / "ledger-anchors.jsonl"),
            SHOESCHOOL_PYTHON=sys.executable,
        ),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    insecure = ssl.create_default_context()
    insecure.check_hostname = False
    insecure.verify_mode = ssl.CERT_NONE
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(
        urllib.request.HTTPSHandler(context=insecure), urllib.request.HTTPCookieProcessor(jar)
    )
    try:
        deadline = time.monotonic() + 420
        while True:
            try:
                health = opener.open(f"{base_url}/healthz", timeout=5)
                break
            except (OSError, urllib.error.URLError):
                assert process.poll() is None, (tmp_path / "serve.log").read_text()[-3000:]
                assert time.monotonic() < deadline, "serve-network never answered"
                time.sleep(1)
        assert "max-age" in health.headers["Strict-Transport-Security"]
        page = opener.open(f"{base_url}/accounts/login/").read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token, page
        form = urllib.parse.urlencode(
            {
                "username": "admin",
                "password": "shoe-school-demo",
                "csrfmiddlewaretoken": token.group(1),
            }
        ).encode()
        request = urllib.request.Request(
            f"{base_url}/accounts/login/", data=form, headers={"Referer": f"{base_url}/"}
        )
        answer = opener.open(request).read().decode()
        # No demo accounts: the published password opens nothing.
        assert "That username and password do not match" in answer
        secret = (tmp_path / "data" / "secret-key").read_text().strip()
        assert stat.S_IMODE((tmp_path / "data" / "secret-key").stat().st_mode) == 0o600
        assert secret not in (tmp_path / "serve.log").read_text()
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=60)
        finally:
            log.close()
    output = (tmp_path / "serve.log").read_text()
    assert "Shoe School stopped." in output, output[-3000:]
    deadline = time.monotonic() + 30
    while not group_is_gone(process.pid):
        assert time.monotonic() < deadline, "something serve-network started is still running"
        time.sleep(0.5)
