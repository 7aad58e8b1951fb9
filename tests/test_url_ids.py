"""Ids in addresses fit the id columns: a longer number is an unknown address (404), never a
500 from a query the database refuses (SQLite cannot bind an integer past 64 bits)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import IntConverter

from core.converters import BIGGEST_ID, RowId

PAST_ANY_ID = BIGGEST_ID + 1


def converters_of(patterns, prefix=""):
    for entry in patterns:
        route = prefix + str(entry.pattern)
        yield from ((route, c) for c in getattr(entry.pattern, "converters", {}).values())
        if isinstance(entry, URLResolver):
            yield from converters_of(entry.url_patterns, route)
        else:
            assert isinstance(entry, URLPattern)


def test_every_number_in_our_addresses_is_read_as_an_id():
    ints = [
        route for route, c in converters_of(get_resolver().url_patterns) if type(c) is IntConverter
    ]
    assert ints == []
    assert any(isinstance(c, RowId) for _, c in converters_of(get_resolver().url_patterns))


@pytest.mark.parametrize(
    "url",
    [
        f"/train/attempts/{PAST_ANY_ID}/",
        f"/train/attempts/{PAST_ANY_ID}/results/",
        f"/train/attempts/1/rounds/{PAST_ANY_ID}/feedback/",
        "/train/attempts/" + "9" * 40 + "/",
    ],
)
@pytest.mark.django_db
def test_a_page_for_an_id_past_any_row_is_not_found(trainee, url):
    client = Client()
    client.force_login(trainee)
    assert client.get(url).status_code == 404


@pytest.mark.django_db
def test_the_biggest_id_is_still_an_address_and_finds_nothing(trainee):
    client = Client()
    client.force_login(trainee)
    assert client.get(f"/train/attempts/{BIGGEST_ID}/").status_code == 404
    assert client.get(f"/api/attempts/{BIGGEST_ID}/").json()["code"] == "not_found"


def test_the_api_schema_says_an_id_is_an_integer_that_fits():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    ids = [
        parameter["schema"]
        for operation in schema["paths"]["/api/attempts/{attempt_id}/"].values()
        for parameter in operation.get("parameters", [])
        if parameter["name"] == "attempt_id"
    ]
    assert ids
    assert all(p == {"type": "integer", "minimum": 0, "maximum": BIGGEST_ID} for p in ids)
