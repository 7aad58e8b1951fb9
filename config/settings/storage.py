"""Where stored files (the compliance reports) are kept: STORAGES["default"].

SHOESCHOOL_FILE_STORAGE chooses (docs/operations.md):

- ``local`` (the embedded default): a folder of this machine, MEDIA_ROOT. Only the host
  that wrote a file can read it: one machine, or hosts that share that folder.
- ``database``: the database's own tables (core.storage.DatabaseStorage); every web host and
  worker that reaches the database reaches the files, with nothing else to run.
- ``s3``: an S3-compatible bucket through django-storages (AWS, MinIO, Ceph...), set by the
  SHOESCHOOL_S3_* variables; credentials from them or boto3's usual chain (AWS_* variables,
  an instance role).
"""

from typing import Any

import environ

from .environment import env

FILE_STORAGES = ("local", "database", "s3")


def file_storage() -> dict[str, Any]:
    kind = env.str("SHOESCHOOL_FILE_STORAGE", default="local")
    if kind == "local":
        return {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    if kind == "database":
        return {"BACKEND": "core.storage.DatabaseStorage"}
    if kind == "s3":
        options: dict[str, Any] = {
            # No default: an S3 storage without its bucket must not start.
            "bucket_name": env.str("SHOESCHOOL_S3_BUCKET"),
            "location": env.str("SHOESCHOOL_S3_PREFIX", default=""),
            "endpoint_url": env.str("SHOESCHOOL_S3_ENDPOINT_URL", default="") or None,
            "region_name": env.str("SHOESCHOOL_S3_REGION", default="") or None,
            "addressing_style": env.str("SHOESCHOOL_S3_ADDRESSING_STYLE", default="") or None,
            # Private objects, never overwritten: a name taken gets another.
            "default_acl": None,
            "file_overwrite": False,
        }
        access_key = env.str("SHOESCHOOL_S3_ACCESS_KEY_ID", default="")
        if access_key:
            options["access_key"] = access_key
            options["secret_key"] = env.str("SHOESCHOOL_S3_SECRET_ACCESS_KEY")
        return {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": options}
    raise environ.ImproperlyConfigured(
        f"SHOESCHOOL_FILE_STORAGE must be one of {', '.join(FILE_STORAGES)}, not {kind!r}"
    )
