"""How passwords are chosen and stored (docs/security.md)."""

# The password policy (docs/security.md): checked wherever a password is chosen (the admin,
# changepassword, createsuperuser); set_password alone, as the demo set-up uses, skips it.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 12},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Argon2 first, as Django recommends: memory-hard (a guesser's GPU gains little) and, at
# Django's settings (argon2id, 100 MiB, 2 passes), half the CPU of PBKDF2's million rounds
# per sign-in (docs/security.md; a room of trainees signs in within minutes). The others
# still check older hashes, and a sign-in with one stores the password again as Argon2.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
