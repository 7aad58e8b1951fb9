"""Presenting: what the shell shows of a question (the public question, the table's view
and its template, the answer form, the words)."""

from __future__ import annotations

from typing import Protocol


class Presenting(Protocol):
    pass
