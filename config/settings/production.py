"""Production: DEBUG off, secrets and hosts required, HTTPS-only cookies, whitenoise."""

from django.core.exceptions import ImproperlyConfigured

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
if len(SHOESCHOOL_LEDGER_ANCHOR_KEY) < 32:
    raise ImproperlyConfigured(
        "SHOESCHOOL_LEDGER_ANCHOR_KEY must be at least 32 characters (a random secret)"
    )

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
