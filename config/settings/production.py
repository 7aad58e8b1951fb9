"""Production: DEBUG off, secrets and hosts required, HTTPS-only cookies, whitenoise."""

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from .base import DEVELOPMENT_LEDGER_ANCHOR_KEY, DEVELOPMENT_SECRET_KEY
from .environment import env
from .storage import file_storage

DEBUG = False
# No defaults: a production start without these fails at once with the variable's name.
SECRET_KEY = env.str("SECRET_KEY")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# Whoever holds this key can write checkpoint lines the ledger's verification believes: keep
# it from the people who administer the database.
SHOESCHOOL_LEDGER_ANCHOR_KEY = env.str("SHOESCHOOL_LEDGER_ANCHOR_KEY")
# The credentials' signing key and the public address: named, never defaulted (the key is
# checked at start by audit.checks; docs/operations.md, *The credential key*).
SHOESCHOOL_CREDENTIAL_KEY_FILE = Path(env.str("SHOESCHOOL_CREDENTIAL_KEY_FILE"))
SHOESCHOOL_PUBLIC_URL = env.str("SHOESCHOOL_PUBLIC_URL").rstrip("/")


def _refuse_published_or_shared_secrets() -> None:
    """Refuse, naming the setting, what would make production's secrets or hosts public:
    the development keys printed in this repository (anyone could forge sessions, password
    reset links, device cookies and checkpoint lines with them), one key used for both (the
    holder of the site's key could sign checkpoints), and a host list that admits any Host
    header (forged links in password-reset e-mails)."""
    if SECRET_KEY == DEVELOPMENT_SECRET_KEY:
        raise ImproperlyConfigured(
            "SECRET_KEY is the published development key: set a random secret of your own "
            "(scripts/serve-network makes one in the data folder)"
        )
    if len(SECRET_KEY) < 50:
        raise ImproperlyConfigured("SECRET_KEY must be at least 50 characters (a random secret)")
    if SHOESCHOOL_LEDGER_ANCHOR_KEY == DEVELOPMENT_LEDGER_ANCHOR_KEY:
        raise ImproperlyConfigured(
            "SHOESCHOOL_LEDGER_ANCHOR_KEY is the published development key: set a random "
            "secret of your own, kept from the database's administrators"
        )
    if len(SHOESCHOOL_LEDGER_ANCHOR_KEY) < 32:
        raise ImproperlyConfigured(
            "SHOESCHOOL_LEDGER_ANCHOR_KEY must be at least 32 characters (a random secret)"
        )
    if SHOESCHOOL_LEDGER_ANCHOR_KEY == SECRET_KEY:
        raise ImproperlyConfigured(
            "SHOESCHOOL_LEDGER_ANCHOR_KEY must differ from SECRET_KEY: whoever holds the "
            "site's key would otherwise sign checkpoint lines too"
        )
    if any(host.strip() == "*" for host in ALLOWED_HOSTS):
        raise ImproperlyConfigured(
            "ALLOWED_HOSTS must name the site's host names, not '*': any Host header would "
            "be believed (password-reset links could point elsewhere)"
        )


_refuse_published_or_shared_secrets()

SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SESSION_COOKIE_HTTPONLY = True
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

STORAGES = {
    "default": file_storage(),
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
