"""Fixtures of the trainer's tests."""

import pytest
from rest_framework.test import APIClient


@pytest.fixture
def api(trainee):
    """The API as the trainee, logged in."""
    client = APIClient()
    client.force_login(trainee)
    return client
