"""Fixtures of the trainee API's answering tests (test_api_answers, test_api_answer_next)."""

import pytest

from tests.trainer.factories import DrillFactory, natural_document, simple_document
from trainer.models import Mode
from trainer.services.attempts import attempt_start


@pytest.fixture
def attempt(trainee):
    """A practice attempt: a natural on 25 (two questions), then two boxes (four)."""
    drill = DrillFactory(documents=[natural_document(), simple_document()])
    return attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)


@pytest.fixture
def shown(api, attempt):
    """The attempt with its first question shown (its clock started)."""
    assert api.get(f"/api/attempts/{attempt.pk}/question").status_code == 200
    return attempt
