"""Model helpers both apps' records share."""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.base_session import AbstractBaseSession
from django.core.exceptions import ValidationError
from django.db import models


class AppendOnly(models.Model):
    """A record that is written once: saving an existing row or deleting one is refused."""

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not self._state.adding:
            raise ValidationError(f"{self.__class__.__name__} is append-only: write a new entry")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ValidationError(f"{self.__class__.__name__} is append-only and is never deleted")


class StoredFile(models.Model):
    """A file kept in the database by core.storage.DatabaseStorage: its name and size here,
    its bytes in StoredFileChunk rows, so every host that reaches the database reaches it."""

    name = models.CharField(max_length=255, unique=True)
    size = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "core"

    def __str__(self) -> str:
        return self.name


class StoredFileChunk(models.Model):
    """A piece of a stored file's bytes, in order: a report of hundreds of megabytes is read
    and written a chunk at a time, never held whole in memory."""

    file = models.ForeignKey(StoredFile, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    data = models.BinaryField()

    class Meta:
        app_label = "core"
        constraints = [
            models.UniqueConstraint(fields=["file", "index"], name="core_storedfilechunk_order")
        ]

    def __str__(self) -> str:
        return f"{self.file_id}#{self.index}"


class Session(AbstractBaseSession):
    """Django's database session with the signed-in user's id beside its data, written from
    the data whenever the session is saved: a request reads its session and its user in one
    query (config.session_store, core.auth). The column is only where to look: the user a
    request acts as is the one in the session's signed data, and the row read with the
    session serves only when its id is that one."""

    user_id = models.BigIntegerField(null=True)

    class Meta(AbstractBaseSession.Meta):
        db_table = "core_session"

    @classmethod
    def get_session_store_class(cls) -> Any:
        from django.conf import settings
        from django.utils.module_loading import import_string

        return import_string(f"{settings.SESSION_ENGINE}.SessionStore")
