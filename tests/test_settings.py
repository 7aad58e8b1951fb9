"""The production configuration, checked in fresh processes as an operator would start it."""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    test_only = {
        "SECRET_KEY",
        "ALLOWED_HOSTS",
        "DJANGO_ALLOW_ASYNC_UNSAFE",
        "DJANGO_ENV",
        "SHOESCHOOL_LEDGER_ANCHOR_KEY",
        "SHOESCHOOL_CREDENTIAL_KEY_FILE",
        "SHOESCHOOL_PUBLIC_URL",
    }
    base = {k: v for k, v in os.environ.items() if k not in test_only}
    base.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_production_refuses_to_start_without_a_secret_key():
    result = run_manage("check", DJANGO_ENV="production", ALLOWED_HOSTS="dealers.example.com")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_production_refuses_to_start_without_allowed_hosts():
    result = run_manage("check", DJANGO_ENV="production", SECRET_KEY="x" * 64)
    assert result.returncode != 0
    assert "ALLOWED_HOSTS" in result.stderr


def _credential_key() -> str:
    """A credential key of the test run's own, as an operator makes one."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    path = Path(tempfile.mkdtemp(prefix="shoeschool-key-")) / "credential-key.pem"
    path.write_bytes(
        Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    path.chmod(0o600)
    return str(path)


PRODUCTION = {
    "DJANGO_ENV": "production",
    "SHOESCHOOL_PUBLIC_URL": "https://dealers.example.com",
    "SHOESCHOOL_CREDENTIAL_KEY_FILE": _credential_key(),
    "SECRET_KEY": "a-long-random-production-secret-" + "k3y" * 20,
    "ALLOWED_HOSTS": "dealers.example.com",
    "SHOESCHOOL_LEDGER_ANCHOR_KEY": "a-long-random-ledger-anchor-key-" + "k3y" * 20,
    # Out of the data folder, as production requires (ledger.checks).
    "SHOESCHOOL_LEDGER_ANCHOR_FILE": "/mnt/ledger-worm/shoeschool/ledger-anchors.jsonl",
}


def test_production_refuses_to_start_without_a_ledger_anchor_key():
    # Without its own key, anyone who read the public development key could sign checkpoints.
    env = {k: v for k, v in PRODUCTION.items() if k != "SHOESCHOOL_LEDGER_ANCHOR_KEY"}
    result = run_manage("check", **env)
    assert result.returncode != 0
    assert "SHOESCHOOL_LEDGER_ANCHOR_KEY" in result.stderr


def test_production_refuses_a_short_ledger_anchor_key():
    result = run_manage("check", **{**PRODUCTION, "SHOESCHOOL_LEDGER_ANCHOR_KEY": "short"})
    assert result.returncode != 0
    assert "SHOESCHOOL_LEDGER_ANCHOR_KEY must be at least 32 characters" in result.stderr


# Issue #23, finding 8: production started with the published development keys and a host
# list of '*'.
DEVELOPMENT_SECRET_KEY = "dev-only-insecure-key-never-used-in-production"
DEVELOPMENT_LEDGER_ANCHOR_KEY = "dev-only-ledger-anchor-key-never-used-in-production"


def test_the_published_development_keys_are_the_ones_the_settings_default_to(settings):
    assert settings.SECRET_KEY == DEVELOPMENT_SECRET_KEY
    assert settings.SHOESCHOOL_LEDGER_ANCHOR_KEY == DEVELOPMENT_LEDGER_ANCHOR_KEY


@pytest.mark.parametrize(
    ("override", "message"),
    [
        (
            {"SECRET_KEY": DEVELOPMENT_SECRET_KEY},
            "SECRET_KEY is the published development key",
        ),
        (
            {"SHOESCHOOL_LEDGER_ANCHOR_KEY": DEVELOPMENT_LEDGER_ANCHOR_KEY},
            "SHOESCHOOL_LEDGER_ANCHOR_KEY is the published development key",
        ),
        (
            {"SHOESCHOOL_LEDGER_ANCHOR_KEY": PRODUCTION["SECRET_KEY"]},
            "SHOESCHOOL_LEDGER_ANCHOR_KEY must differ from SECRET_KEY",
        ),
        ({"ALLOWED_HOSTS": "*"}, "ALLOWED_HOSTS must name the site's host names, not '*'"),
        (
            {"ALLOWED_HOSTS": "dealers.example.com,*"},
            "ALLOWED_HOSTS must name the site's host names, not '*'",
        ),
        ({"SECRET_KEY": "short-but-not-published"}, "SECRET_KEY must be at least 50 characters"),
    ],
)
def test_production_refuses_published_shared_or_open_settings(override, message):
    result = run_manage("check", **{**PRODUCTION, **override})
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert message in result.stderr


def test_production_passes_the_deployment_checklist():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_an_unknown_environment_name_is_refused():
    result = run_manage("check", DJANGO_ENV="staging")
    assert result.returncode != 0
    assert "DJANGO_ENV must be development, production or test" in result.stderr


def test_demo_accounts_are_refused_outside_development(tmp_path):
    result = run_manage(
        "setup_demo", **PRODUCTION, DATABASE_URL=f"sqlite:///{tmp_path / 'prod.sqlite3'}"
    )
    assert result.returncode != 0
    assert "only in development" in result.stderr


def test_certification_retention_is_indefinite_or_no_shorter_than_the_records():
    shorter = run_manage("check", SHOESCHOOL_CERT_RETENTION="3", SHOESCHOOL_RETENTION_YEARS="5")
    assert shorter.returncode != 0
    assert "SHOESCHOOL_CERT_RETENTION must be 'indefinite' or a whole number" in shorter.stderr
    assert run_manage("check", SHOESCHOOL_CERT_RETENTION="forever").returncode != 0
    assert run_manage("check", SHOESCHOOL_CERT_RETENTION="10").returncode == 0


def test_certification_records_are_kept_indefinitely_by_default(settings):
    assert settings.SHOESCHOOL_CERT_RETENTION == "indefinite"
    assert settings.RETENTION_YEARS == 5


def email_settings(**env: str) -> list[str]:
    code = (
        "from django.conf import settings as s; "
        "print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_HOST_USER, "
        "s.EMAIL_USE_TLS, s.EMAIL_USE_SSL, repr(s.DEFAULT_FROM_EMAIL), sep='|')"
    )
    result = run_manage("shell", "-c", code, **env)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1].split("|")


def test_development_prints_email_to_the_console():
    backend, *_ = email_settings(DJANGO_ENV="development")
    assert backend == "django.core.mail.backends.console.EmailBackend"


def test_production_sends_email_by_smtp_from_an_email_url():
    got = email_settings(
        **PRODUCTION,
        EMAIL_URL="smtp+tls://mailer:s3cret@mail.casino.example:587",
        DEFAULT_FROM_EMAIL="Shoe School <training@casino.example>",
    )
    assert got == [
        "django.core.mail.backends.smtp.EmailBackend",
        "mail.casino.example",
        "587",
        "mailer",
        "True",
        "False",
        "'Shoe School <training@casino.example>'",
    ]


def test_production_sends_email_by_smtp_from_separate_variables():
    got = email_settings(
        **PRODUCTION,
        EMAIL_HOST="smtp.casino.example",
        EMAIL_PORT="465",
        EMAIL_HOST_USER="mailer",
        EMAIL_HOST_PASSWORD="s3cret",
        EMAIL_USE_SSL="true",
    )
    assert got[:6] == [
        "django.core.mail.backends.smtp.EmailBackend",
        "smtp.casino.example",
        "465",
        "mailer",
        "False",
        "True",
    ]


def test_production_with_email_passes_the_deployment_checklist():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        **PRODUCTION,
        EMAIL_URL="smtp+tls://mailer:s3cret@mail.casino.example:587",
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_web_process_sets_its_startup_objects_aside_from_the_garbage_collector():
    code = (
        "import config.wsgi, gc, sys; "
        "print(gc.get_freeze_count(), 'trainer.api.views' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    frozen, views_loaded = result.stdout.split()
    # Every view is loaded before the first request, and what lives as long as the process
    # (tens of thousands of objects) is out of the collector's way.
    assert views_loaded == "True"
    assert int(frozen) > 50_000


def test_production_refuses_to_start_without_its_credential_key_or_address():
    for name in ("SHOESCHOOL_CREDENTIAL_KEY_FILE", "SHOESCHOOL_PUBLIC_URL"):
        env = {k: v for k, v in PRODUCTION.items() if k != name}
        result = run_manage("check", **env)
        assert result.returncode != 0
        assert name in result.stderr


def test_production_refuses_a_credential_key_that_is_missing_or_not_private(tmp_path):
    missing = run_manage(
        "check", **{**PRODUCTION, "SHOESCHOOL_CREDENTIAL_KEY_FILE": str(tmp_path / "none.pem")}
    )
    assert missing.returncode != 0
    assert "audit.E001" in missing.stdout + missing.stderr
    shared = tmp_path / "shared.pem"
    shared.write_bytes(Path(PRODUCTION["SHOESCHOOL_CREDENTIAL_KEY_FILE"]).read_bytes())
    shared.chmod(0o644)
    result = run_manage("check", **{**PRODUCTION, "SHOESCHOOL_CREDENTIAL_KEY_FILE": str(shared)})
    assert result.returncode != 0
    assert "chmod 600" in result.stdout + result.stderr
