"""Fields the API's bodies share, trainer's and teaching's alike."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class TextField(serializers.CharField):
    """A JSON string only: DRF's CharField would read 0 or true as "0" or "True"."""

    default_error_messages = {"not_a_string": "must be a JSON string"}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("not_a_string")
        value: str = super().to_internal_value(data)
        return value
