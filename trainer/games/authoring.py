"""Authoring: validating a staged document, generating rounds for chosen skills, the rule
parameters a table is set with, and the skills the game teaches."""

from __future__ import annotations

from typing import Protocol


class Authoring(Protocol):
    pass
