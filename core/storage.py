"""Stored files every host reaches: a Django storage that keeps them in the database.

Selected by STORAGES["default"] (SHOESCHOOL_FILE_STORAGE=database, docs/operations.md).
A file is a StoredFile row and its bytes in StoredFileChunk rows of CHUNK_BYTES each, so
that a web host can hand out a report a worker on another machine produced without a
shared disk, and neither side holds a large file whole in memory.
"""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

from django.core.files.base import File
from django.core.files.storage import Storage
from django.db import transaction
from django.utils.deconstruct import deconstructible

from core.models import StoredFile, StoredFileChunk

# Large enough that a report of a few hundred MB is a few hundred rows, small enough that
# PostgreSQL and SQLite handle each row's value without ceremony.
CHUNK_BYTES = 1 << 20


class _ChunkReader(io.RawIOBase):
    """A stored file's bytes read one chunk row at a time, in order."""

    def __init__(self, file_id: int) -> None:
        self._file_id = file_id
        self._index = 0
        self._buffer = b""
        self._done = False

    def readable(self) -> bool:
        return True

    def readinto(self, target: Any) -> int:
        while not self._buffer and not self._done:
            data = (
                StoredFileChunk.objects.filter(file_id=self._file_id, index=self._index)
                .values_list("data", flat=True)
                .first()
            )
            if data is None:
                self._done = True
                break
            self._buffer = bytes(data)
            self._index += 1
        size = min(len(target), len(self._buffer))
        target[:size] = self._buffer[:size]
        self._buffer = self._buffer[size:]
        return size


@deconstructible(path="core.storage.DatabaseStorage")
class DatabaseStorage(Storage):
    """Files as rows of the database (core.models.StoredFile and its chunks).

    Has no URL: the files are handed out by the views that check who may have them.
    """

    def _open(self, name: str, mode: str = "rb") -> File[bytes]:
        if "w" in mode or "a" in mode or "+" in mode:
            raise ValueError("files in the database are written with save(), read with open()")
        file_id = StoredFile.objects.filter(name=name).values_list("pk", flat=True).first()
        if file_id is None:
            raise FileNotFoundError(f"no stored file named {name}")
        reader = io.BufferedReader(_ChunkReader(file_id), buffer_size=CHUNK_BYTES)
        return File(reader, name=name)

    def _save(self, name: str, content: File[Any]) -> str:
        # Storage.save hands every content over as a File (it wraps a bare stream in one).
        with transaction.atomic():
            stored = StoredFile.objects.create(name=name)
            size = 0
            for index, chunk in enumerate(content.chunks(CHUNK_BYTES)):
                data = chunk.encode() if isinstance(chunk, str) else bytes(chunk)
                StoredFileChunk.objects.create(file=stored, index=index, data=data)
                size += len(data)
            StoredFile.objects.filter(pk=stored.pk).update(size=size)
        return name

    def delete(self, name: str) -> None:
        StoredFile.objects.filter(name=name).delete()

    def exists(self, name: str) -> bool:
        return StoredFile.objects.filter(name=name).exists()

    def size(self, name: str) -> int:
        size = StoredFile.objects.filter(name=name).values_list("size", flat=True).first()
        if size is None:
            raise FileNotFoundError(f"no stored file named {name}")
        return size

    def listdir(self, path: str) -> tuple[list[str], list[str]]:
        prefix = f"{path.rstrip('/')}/" if path else ""
        directories: set[str] = set()
        files: list[str] = []
        for name in StoredFile.objects.filter(name__startswith=prefix).values_list(
            "name", flat=True
        ):
            rest = name[len(prefix) :]
            head, slash, _ = rest.partition("/")
            if slash:
                directories.add(head)
            else:
                files.append(rest)
        return sorted(directories), sorted(files)

    def get_created_time(self, name: str) -> dt.datetime:
        created = StoredFile.objects.filter(name=name).values_list("created_at", flat=True).first()
        if created is None:
            raise FileNotFoundError(f"no stored file named {name}")
        return created

    get_modified_time = get_created_time

    def url(self, name: str | None) -> str:
        raise NotImplementedError("files in the database are handed out by the views, not a URL")
