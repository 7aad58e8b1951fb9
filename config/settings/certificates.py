"""The certificates' settings (docs/security.md, *Certificates anyone can verify*),
read by config.settings.base."""

from pathlib import Path

from .environment import DATA_DIR, ENVIRONMENT, env

# The site's address as the public reaches it: the QR code on a certificate PDF and the
# credentials' URLs use it.
SHOESCHOOL_PUBLIC_URL = env.str("SHOESCHOOL_PUBLIC_URL", default="http://127.0.0.1:8000").rstrip(
    "/"
)
# The issuer's name on certificates and credentials (the house).
SHOESCHOOL_ISSUER_NAME = env.str("SHOESCHOOL_ISSUER_NAME", default="Shoe School")
# The key credentials are signed with: an Ed25519 private key (PEM) kept by the operator,
# out of the repository and of the database. Development and tests make one in the data
# folder on first use; production names it and refuses to start without it.
SHOESCHOOL_CREDENTIAL_KEY_FILE = Path(
    env.str("SHOESCHOOL_CREDENTIAL_KEY_FILE", default=str(DATA_DIR / "credential-key.pem"))
)
SHOESCHOOL_CREDENTIAL_KEY_MAKE = ENVIRONMENT != "production"
# The public keys (PEM files) of keys used before a rotation: still published, so the
# credentials they signed still verify.
SHOESCHOOL_CREDENTIAL_RETIRED_KEYS = env.list("SHOESCHOOL_CREDENTIAL_RETIRED_KEYS", default=[])
# The public verify page: at most this many look-ups per client address in each window.
SHOESCHOOL_VERIFY_LIMIT = env.int("SHOESCHOOL_VERIFY_LIMIT", default=30)
SHOESCHOOL_VERIFY_WINDOW_SECONDS = env.int("SHOESCHOOL_VERIFY_WINDOW_SECONDS", default=600)
