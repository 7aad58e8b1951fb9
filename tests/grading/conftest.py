"""The grading tests' fixture: attempts to grade (tests/answered.py makes them)."""

from typing import Any

import pytest

from tests.answered import make_attempt
from trainer.models import Attempt


@pytest.fixture
def attempt_of(trainee):
    def build(*args: Any, **kwargs: Any) -> Attempt:
        return make_attempt(trainee, *args, **kwargs)

    return build
