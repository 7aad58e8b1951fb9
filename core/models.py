"""Model helpers both apps' records share."""

from __future__ import annotations

from typing import Any

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
