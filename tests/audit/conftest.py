"""The pit's tests start from no cached figures. Their classes with pit bosses (`pit`) are
in tests/conftest.py, their graded attempts and clients in tests/graded.py."""

from __future__ import annotations

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_figures():
    """The dashboard caches its figures; each test starts from none."""
    cache.clear()
