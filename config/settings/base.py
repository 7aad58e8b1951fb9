"""Settings shared by every configuration; each value can come from the environment."""

from datetime import timedelta
from pathlib import Path
from typing import Any

import environ
from csp.constants import NONCE, NONE, SELF

from core.converters import BIGGEST_ID

from .certificates import (  # noqa: F401 - settings, read by name from django.conf
    SHOESCHOOL_CREDENTIAL_KEY_FILE,
    SHOESCHOOL_CREDENTIAL_KEY_MAKE,
    SHOESCHOOL_CREDENTIAL_RETIRED_KEYS,
    SHOESCHOOL_ISSUER_NAME,
    SHOESCHOOL_PUBLIC_URL,
    SHOESCHOOL_VERIFY_LIMIT,
    SHOESCHOOL_VERIFY_WINDOW_SECONDS,
)
from .environment import BASE_DIR, DATA_DIR, ENVIRONMENT, env
from .house_zone import house_zone_name
from .passwords import AUTH_PASSWORD_VALIDATORS, PASSWORD_HASHERS  # noqa: F401 - settings
from .storage import file_storage

# The development keys are public on purpose: production refuses to start with either
# (config/settings/production.py).
DEVELOPMENT_SECRET_KEY = "dev-only-insecure-key-never-used-in-production"  # noqa: S105
DEVELOPMENT_LEDGER_ANCHOR_KEY = "dev-only-ledger-anchor-key-never-used-in-production"
SECRET_KEY = env.str("SECRET_KEY", default=DEVELOPMENT_SECRET_KEY)
DEBUG = env.bool("DEBUG", default=ENVIRONMENT == "development")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])

INSTALLED_APPS = [
    # First: its runserver (the development server kept on this computer) comes before
    # whitenoise's and Django's.
    "core",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_results",
    "django_celery_beat",
    "axes",
    "csp",
    "ledger",
    "trainer",
    "teaching",
    "audit",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "config.middleware.NoStoreWhenSignedInMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # Django's, the user read with the session (config.session_store).
    "config.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Signs out a session idle too long, or past a shift (config.sessions).
    "config.sessions.IdleSignOutMiddleware",
    "config.errors.ProductErrorPagesMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# Only the site's own files run or style a page: the templates carry no inline script or
# style, the pit's charts' stylesheets (inline SVG) carry the request's nonce, and the API
# docs' start-up script is a file of its own (config.urls). docs/security.md.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, NONCE],
        # Swagger UI's stylesheet draws its icons as data: URIs.
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
SECURE_REFERRER_POLICY = "same-origin"

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "trainer.context_processors.roles",
                "config.context_processors.navigation",
            ],
            # `duration` (core.templatetags.house): every template writes a time taken or
            # left the one way, with no {% load %}.
            "builtins": ["core.templatetags.house"],
        },
    },
]


def _database() -> dict[str, object]:
    default_sqlite = f"sqlite:///{DATA_DIR / 'shoeschool.sqlite3'}"
    config: dict[str, object] = env.db_url("DATABASE_URL", default=default_sqlite)
    if str(config["ENGINE"]).endswith("sqlite3"):
        # The web server and a Celery worker write at once: WAL lets readers go on, and
        # IMMEDIATE transactions with a busy timeout wait instead of failing "locked".
        config["OPTIONS"] = {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    else:
        config.setdefault("CONN_MAX_AGE", env.int("DATABASE_CONN_MAX_AGE", default=60))
        config.setdefault("CONN_HEALTH_CHECKS", True)
    return config


DATABASES = {"default": _database()}
# The dashboard's figures are cached under the version of the graded data (see
# audit.selectors.graded_cache). Memory per process by default; a shared cache such as
# redis://127.0.0.1:6379/1 lets every web worker reuse what one computed.
CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://")}
if str(CACHES["default"]["BACKEND"]).endswith("LocMemCache"):
    # An entry per trainee and filter: room for a few thousand trainees (300 by default).
    CACHES["default"].setdefault("OPTIONS", {}).setdefault("MAX_ENTRIES", 20_000)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Axes' backend first: it refuses a locked-out client before any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Django's ModelBackend, the user's roles read in the same query (core.auth).
    "core.auth.RolesModelBackend",
]
# Password guessing (core.lockout, core.devices; docs/security.md): this many wrong
# passwords for one username from one address (or from one browser known for it) lock that
# username there for the cool-off, counted from the last of them; past the same number
# for a username from everywhere, or past the address figure from one address for any
# usernames, each further try waits a delay doubling from 1 s up to the maximum.
AXES_FAILURE_LIMIT = env.int("SHOESCHOOL_LOGIN_FAILURE_LIMIT", default=5)
SHOESCHOOL_LOGIN_ADDRESS_FAILURE_LIMIT = env.int(
    "SHOESCHOOL_LOGIN_ADDRESS_FAILURE_LIMIT", default=25
)
SHOESCHOOL_LOGIN_DELAY_MAX_SECONDS = env.int("SHOESCHOOL_LOGIN_DELAY_MAX_SECONDS", default=60)
SHOESCHOOL_LOGIN_COOLOFF_MINUTES = env.int("SHOESCHOOL_LOGIN_COOLOFF_MINUTES", default=15)
AXES_COOLOFF_TIME = timedelta(minutes=SHOESCHOOL_LOGIN_COOLOFF_MINUTES)
# The username and the address combined (or the known browser): core.lockout.
AXES_LOCKOUT_PARAMETERS = "core.lockout.lockout_parameters"
# Wrong passwords count against the username as signing in compares it (core.usernames):
# "Admin", "ADMIN" and "ADMIN" in full-width letters are one account's failures.
AXES_USERNAME_CALLABLE = "core.usernames.lockout_username"
AXES_HANDLER = "core.lockout.DeviceAwareHandler"
AXES_LOCKOUT_CALLABLE = "core.lockout.lockout_response"
AXES_CLIENT_IP_CALLABLE = "core.lockout.client_address"
# How many reverse proxies stand in front of the site, each appending to X-Forwarded-For;
# 0 counts failures against the socket's address.
SHOESCHOOL_PROXY_COUNT = env.int("SHOESCHOOL_PROXY_COUNT", default=0)
# A successful login must not wipe the count: it would also wipe the guesses at other
# accounts from the same address, so a trainee could guess at a pit boss's password
# between logins of their own.
AXES_RESET_ON_SUCCESS = False
# A refused attempt during a lockout or a delay does not count nor restart it: the wait
# shown stays true.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_HTTP_RESPONSE_CODE = 429
# A refused CSRF token: the product's expired-form page, or JSON under /api/.
CSRF_FAILURE_VIEW = "config.errors.csrf_failure"

# Password reset (config.accounts; docs/security.md): an invitation's or a reset's link
# lasts this many days (a new hire may read it the next morning, or after a weekend); one
# e-mail address gets at most this many reset e-mails, and one client address may ask at
# most this many times, per window.
SHOESCHOOL_PASSWORD_LINK_DAYS = max(1, env.int("SHOESCHOOL_PASSWORD_LINK_DAYS", default=7))
PASSWORD_RESET_TIMEOUT = SHOESCHOOL_PASSWORD_LINK_DAYS * 24 * 60 * 60
SHOESCHOOL_PASSWORD_RESET_EMAIL_LIMIT = env.int("SHOESCHOOL_PASSWORD_RESET_EMAIL_LIMIT", default=3)
SHOESCHOOL_PASSWORD_RESET_CLIENT_LIMIT = env.int(
    "SHOESCHOOL_PASSWORD_RESET_CLIENT_LIMIT", default=20
)
SHOESCHOOL_PASSWORD_RESET_WINDOW_MINUTES = env.int(
    "SHOESCHOOL_PASSWORD_RESET_WINDOW_MINUTES", default=60
)


def _email() -> dict[str, Any]:
    """Where e-mail (password resets) goes: EMAIL_URL if set (smtp+tls://user:password@host:587
    for STARTTLS, smtp+ssl://…:465 for SSL), else the separate EMAIL_* variables. Without
    either, development prints e-mail to the console and production sends it by SMTP to
    localhost:25 (docs/operations.md)."""
    if env.str("EMAIL_URL", default=""):
        config: dict[str, Any] = env.email_url("EMAIL_URL")
        return config
    backend = {
        "development": "django.core.mail.backends.console.EmailBackend",
        "production": "django.core.mail.backends.smtp.EmailBackend",
    }.get(ENVIRONMENT, "django.core.mail.backends.locmem.EmailBackend")
    return {
        "EMAIL_BACKEND": env.str("EMAIL_BACKEND", default=backend),
        "EMAIL_HOST": env.str("EMAIL_HOST", default="localhost"),
        "EMAIL_PORT": env.int("EMAIL_PORT", default=25),
        "EMAIL_HOST_USER": env.str("EMAIL_HOST_USER", default=""),
        "EMAIL_HOST_PASSWORD": env.str("EMAIL_HOST_PASSWORD", default=""),
        "EMAIL_USE_TLS": env.bool("EMAIL_USE_TLS", default=False),
        "EMAIL_USE_SSL": env.bool("EMAIL_USE_SSL", default=False),
    }


_EMAIL = _email()
EMAIL_BACKEND = _EMAIL["EMAIL_BACKEND"]
# An EMAIL_URL leaves out what it does not say (None): Django's defaults then.
EMAIL_HOST = _EMAIL.get("EMAIL_HOST") or "localhost"
EMAIL_PORT = _EMAIL.get("EMAIL_PORT") or 25
EMAIL_HOST_USER = _EMAIL.get("EMAIL_HOST_USER") or ""
EMAIL_HOST_PASSWORD = _EMAIL.get("EMAIL_HOST_PASSWORD") or ""
EMAIL_USE_TLS = bool(_EMAIL.get("EMAIL_USE_TLS"))
EMAIL_USE_SSL = bool(_EMAIL.get("EMAIL_USE_SSL"))
# A mail server that does not answer must not hold a page for long.
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Shoe School <shoeschool@localhost>")
SERVER_EMAIL = env.str("SERVER_EMAIL", default=DEFAULT_FROM_EMAIL)

# Sessions (config.sessions; docs/security.md): the cookie ends with the browser; a session
# unused this many minutes is signed out (trainees; pit bosses, compliance officers and
# administrators; a sign-in marked "This is a shared device", if shorter), and any
# session ends this many hours after its sign-in.
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
# Database sessions, read with one fixed statement (config.session_store; issue #29).
SESSION_ENGINE = "config.session_store"
SHOESCHOOL_SESSION_IDLE_MINUTES = env.int("SHOESCHOOL_SESSION_IDLE_MINUTES", default=30)
SHOESCHOOL_SESSION_STAFF_IDLE_MINUTES = env.int("SHOESCHOOL_SESSION_STAFF_IDLE_MINUTES", default=15)
SHOESCHOOL_SESSION_SHARED_IDLE_MINUTES = env.int(
    "SHOESCHOOL_SESSION_SHARED_IDLE_MINUTES", default=10
)
SHOESCHOOL_SESSION_MAX_HOURS = env.int("SHOESCHOOL_SESSION_MAX_HOURS", default=12)
# The server forgets a session's record this long after its last change.
SESSION_COOKIE_AGE = SHOESCHOOL_SESSION_MAX_HOURS * 3600

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
# The house's time zone (config/settings/house_zone.py): every time people read or type, on
# pages, PDFs and CSVs, is in it; the database and the ledger keep UTC.
TIME_ZONE = house_zone_name(
    given={
        "SHOESCHOOL_TIME_ZONE": env.str("SHOESCHOOL_TIME_ZONE", default=""),
        "TIME_ZONE": env.str("TIME_ZONE", default=""),  # its older name
    },
    environment=ENVIRONMENT,
)
USE_I18N = True
USE_TZ = True

# The house's currency, shown beside every amount.
# The games this house deals, by module: each registers itself with trainer.games.
SHOESCHOOL_GAMES = ["trainer.games.blackjack", "trainer.games.casino"]

CURRENCY = env.str("SHOESCHOOL_CURRENCY", default="USD")
CURRENCY_SYMBOL = env.str("SHOESCHOOL_CURRENCY_SYMBOL", default=r"\$")
# How long decisions, grades and the audit ledger are kept (years). The application has
# no path that deletes them; this records the policy the operator must honour.
RETENTION_YEARS = env.int("SHOESCHOOL_RETENTION_YEARS", default=5)
# The ledger's checkpoint file: every so often (ledger.tasks.checkpoint_ledger) a line with the
# ledger's head, signed with HMAC-SHA256 under this key, is appended to it, outside the
# database, so a head set back in the database is caught (docs/compliance-guide.md).
# The development key is public on purpose: production refuses to start without its own.
SHOESCHOOL_LEDGER_ANCHOR_FILE = Path(
    env.str("SHOESCHOOL_LEDGER_ANCHOR_FILE", default=str(DATA_DIR / "ledger-anchors.jsonl"))
)
SHOESCHOOL_LEDGER_ANCHOR_KEY = env.str(
    "SHOESCHOOL_LEDGER_ANCHOR_KEY", default=DEVELOPMENT_LEDGER_ANCHOR_KEY
)
# Production holds the checkpoint file to the insider's reach: the start refuses a file in
# the data folder, the media folder or beside the SQLite database (ledger.checks), and an
# emptied, shrunk or missing file fails verification (a warning elsewhere).
SHOESCHOOL_LEDGER_ANCHOR_STRICT = ENVIRONMENT == "production"
# The jurisdiction whose rules the installation follows: a data file in audit/jurisdictions/
# (house, maryland, pennsylvania, new-jersey, nevada): retention, how long a certification
# lasts, the rank that signs a table test and an evaluation sheet, the topics its table
# tests cover. "house" (the default) is Shoe School's own standard.
SHOESCHOOL_JURISDICTION = env.str("SHOESCHOOL_JURISDICTION", default="house")
# The certification rule a pit boss signs against (audit.certification.CertificationRule):
# an exam of at least this many scenarios, at or above this score, answered this fast.
SHOESCHOOL_CERT_PASS_MARK = env.str("SHOESCHOOL_CERT_PASS_MARK", default="95")
SHOESCHOOL_CERT_MIN_SCENARIOS = env.int("SHOESCHOOL_CERT_MIN_SCENARIOS", default=50)
SHOESCHOOL_CERT_MAX_MEAN_SECONDS = env.str("SHOESCHOOL_CERT_MAX_MEAN_SECONDS", default="10")
# A mean answer faster than this is a warning the signer must acknowledge (nobody reads a
# table that fast: someone else may have answered).
SHOESCHOOL_CERT_MIN_MEAN_SECONDS = env.str("SHOESCHOOL_CERT_MIN_MEAN_SECONDS", default="1.5")
# A certification lapses this many months after it was signed; unset, the jurisdiction's
# validity (audit.certification.CertificationRule.from_settings). The compliance self-check
# says "not met" where it is longer than the jurisdiction allows.
if "SHOESCHOOL_CERT_VALID_MONTHS" in env:
    SHOESCHOOL_CERT_VALID_MONTHS = env.int("SHOESCHOOL_CERT_VALID_MONTHS")
# How long certification records (sign-offs, withdrawals, the sittings and flags they rest
# on) are kept: "indefinite" (the default: a dealer's personnel file outlives the 5-year
# policy above), or a whole number of years, never fewer than RETENTION_YEARS.
SHOESCHOOL_CERT_RETENTION = env.str("SHOESCHOOL_CERT_RETENTION", default="indefinite")
if SHOESCHOOL_CERT_RETENTION != "indefinite" and not (
    SHOESCHOOL_CERT_RETENTION.isdigit() and int(SHOESCHOOL_CERT_RETENTION) >= RETENTION_YEARS
):
    raise environ.ImproperlyConfigured(
        "SHOESCHOOL_CERT_RETENTION must be 'indefinite' or a whole number of years not under "
        f"SHOESCHOOL_RETENTION_YEARS ({RETENTION_YEARS}), not {SHOESCHOOL_CERT_RETENTION!r}"
    )

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# Stored files (the compliance reports): a folder of this machine by default; the database
# or an S3 bucket when several hosts must reach them (config/settings/storage.py).
STORAGES = {
    "default": file_storage(),
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(DATA_DIR / "media")))
MEDIA_URL = "media/"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        # Basic authentication whose wrong passwords count towards the login lockout.
        "trainer.api.authentication.LockoutBasicAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # JSON only, nesting-limited: a form body is 415, and the schema says application/json.
    "DEFAULT_PARSER_CLASSES": ["trainer.api.parsers.StrictJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "trainer.api.pagination.StrictPageNumberPagination",
    "PAGE_SIZE": 50,
    "COERCE_DECIMAL_TO_STRING": True,
    "EXCEPTION_HANDLER": "trainer.api.exceptions.api_exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Shoe School API",
    "DESCRIPTION": "Blackjack dealer training: drills, attempts, answers and grades.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Served from our own static files: the machines running this reach no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The answer object is closed: an unknown field is refused (docs/api.md).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "trainer.api.answer_serializers.closed_answer_schema",
    ],
    # core.converters' <id:…>: an integer that fits the id columns (no bigger is an address).
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 0, "maximum": BIGGEST_ID}},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "filters": {"one_line_client_errors": {"()": "config.errors.OneLineClientErrors"}},
    "handlers": {"stdout": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["stdout"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # Axes tells every check at INFO; a failure and a lockout are WARNINGs.
        "axes": {"level": "WARNING"},
        "django.request": {"filters": ["one_line_client_errors"]},
    },
}

from .celery import *  # noqa: E402, F403
