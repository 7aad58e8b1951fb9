"""Fixtures of the teaching app's tests: the trainer's (the API as the trainee)."""

from tests.trainer.conftest import api

__all__ = ["api"]
