"""One account per username ignoring case: a unique index on LOWER(username) (core.usernames).

Accounts made before it whose usernames differ only in case or width (``tina`` and
``Tina``, or TINA in full-width letters) would make the index fail, or slip past it: the migration
names them and stops, so an administrator renames one (the admin's user page) and runs
``migrate`` again. Nothing is renamed or merged automatically: which account is the
person's is not the database's call.
"""

import unicodedata

from django.conf import settings
from django.db import migrations

INDEX_NAME = "auth_user_username_lower_uniq"


def _key(name):
    return unicodedata.normalize("NFKC", name).strip().lower()


def add_index(apps, schema_editor):
    user_model = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    groups = {}
    for pk, name in user_model._default_manager.values_list("pk", "username").order_by("pk"):
        groups.setdefault(_key(name), []).append((pk, name))
    clashes = [group for group in groups.values() if len(group) > 1]
    if clashes:
        shown = "; ".join(
            " and ".join(f"{name!r} (id {pk})" for pk, name in group) for group in clashes[:20]
        )
        more = f" (and {len(clashes) - 20} more)" if len(clashes) > 20 else ""
        raise RuntimeError(
            f"{len(clashes)} group(s) of accounts have usernames that differ only in case or "
            f"width, which signing in now treats as one: {shown}{more}. Rename all but one "
            "account in each group (Administration → Users), then run migrate again."
        )
    quote = schema_editor.quote_name
    table = user_model._meta.db_table
    schema_editor.execute(
        f"CREATE UNIQUE INDEX {quote(INDEX_NAME)} ON {quote(table)} (LOWER({quote('username')}))"
    )


def drop_index(apps, schema_editor):
    schema_editor.execute(f"DROP INDEX IF EXISTS {schema_editor.quote_name(INDEX_NAME)}")


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0001_stored_files"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(add_index, drop_index, elidable=False)]
