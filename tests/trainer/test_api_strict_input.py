"""Strict input at the API's edge: JSON only, no nesting bombs, no echoed megabytes,
amounts in ASCII digits, bad page numbers and unknown URLs answered in the error shape."""

import json

import pytest
from rest_framework.test import APIClient

from ledger.models import LedgerEntry
from tests.trainer.factories import DrillFactory, natural_document, simple_document
from trainer.models import Attempt, Decision, Mode
from trainer.services.attempts import attempt_start

pytestmark = pytest.mark.django_db

RIGHT = {"position": 1, "question": 1, "answer": {"action": "pay", "amount": "37.50"}}


@pytest.fixture
def shown(api, trainee):
    drill = DrillFactory(documents=[natural_document(), simple_document()])
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    assert api.get(f"/api/attempts/{attempt.pk}/question").status_code == 200
    return attempt


def answers_url(attempt):
    return f"/api/attempts/{attempt.pk}/answers"


def assert_error(response, status, *, field=None, code=None):
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error", "field", "code"}
    if field is not None:
        assert body["field"] == field
    if code is not None:
        assert body["code"] == code
    return body


def nothing_recorded(ledger_before):
    return Decision.objects.count() == 0 and LedgerEntry.objects.count() == ledger_before


# Deep nesting.


@pytest.mark.parametrize("opener", ["[", '{"a":'])
@pytest.mark.parametrize("depth", [10_000, 100])
def test_deeply_nested_json_is_a_clear_400_not_a_500(api, shown, opener, depth):
    closer = "]" if opener == "[" else "}"
    raw = opener * depth + "1" + closer * depth
    ledger = LedgerEntry.objects.count()
    response = api.post(answers_url(shown), raw, content_type="application/json")
    body = assert_error(response, 400, code="parse_error")
    assert "nested deeper than" in body["error"]
    assert nothing_recorded(ledger)


def test_deep_nesting_inside_the_answer_is_refused_before_the_service(api, shown):
    deep = "[" * 5000 + "]" * 5000
    raw = f'{{"position": 1, "question": 1, "answer": {{"action": "pay", "amount": {deep}}}}}'
    ledger = LedgerEntry.objects.count()
    response = api.post(answers_url(shown), raw, content_type="application/json")
    assert_error(response, 400, code="parse_error")
    assert nothing_recorded(ledger)


def test_nesting_is_refused_on_every_endpoint_that_takes_a_body(api, shown):
    raw = "[" * 10_000 + "]" * 10_000
    response = api.post("/api/attempts/", raw, content_type="application/json")
    assert_error(response, 400, code="parse_error")
    assert Attempt.objects.count() == 1


def test_ordinary_nesting_is_still_accepted(api, shown):
    response = api.post(answers_url(shown), RIGHT, format="json")
    assert response.status_code == 201


def test_a_body_over_the_upload_limit_is_refused(api, shown, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    padded = {**RIGHT, "answer": {"action": "pay", "amount": "37.50" + " " * 2000}}
    ledger = LedgerEntry.objects.count()
    response = api.post(answers_url(shown), padded, format="json")
    body = assert_error(response, 413, code="too_large")
    assert "1,000 bytes" in body["error"]
    assert nothing_recorded(ledger)


# Echoes are capped.


def test_a_megabyte_amount_is_not_echoed_back(api, shown):
    huge = "9" * 1_000_000 + "x"
    body = {**RIGHT, "answer": {"action": "pay", "amount": huge}}
    ledger = LedgerEntry.objects.count()
    response = api.post(answers_url(shown), body, format="json")
    error = assert_error(response, 400, field="amount")
    assert len(response.content) < 500
    assert "9" * 30 + "…" in error["error"]
    assert nothing_recorded(ledger)


@pytest.mark.parametrize(
    "amount", ["-" + "9" * 100_000, "1." + "2" * 100_000, "1e" + "9" * 100_000]
)
def test_no_amount_message_repeats_more_than_the_cap(api, shown, amount):
    body = {**RIGHT, "answer": {"action": "pay", "amount": amount}}
    response = api.post(answers_url(shown), body, format="json")
    error = assert_error(response, 400, field="amount")
    assert len(error["error"]) < 200
    assert "…" in error["error"]


def test_a_huge_unknown_field_name_is_not_echoed_back(api, shown):
    name = "q" * 100_000
    response = api.post(answers_url(shown), {**RIGHT, name: 1}, format="json")
    error = assert_error(response, 400, code="unknown_field")
    assert len(response.content) < 500
    assert error["field"].startswith("q" * 30)
    assert error["field"].endswith("…")


def test_a_huge_mode_is_not_echoed_back(api, shown):
    body = {"drill": shown.drill_id, "mode": "x" * 100_000}
    response = api.post("/api/attempts/", body, format="json")
    error = assert_error(response, 400, field="mode")
    assert len(response.content) < 500
    assert "practice" in error["error"]


def test_a_huge_filter_value_is_not_echoed_back(api, shown):
    response = api.get("/api/attempts/", {"status": "x" * 5000})
    error = assert_error(response, 400, field="status")
    assert len(response.content) < 500
    assert "in_progress" in error["error"]


# Amounts: strings of ASCII digits only.


@pytest.mark.parametrize(
    "amount",
    [
        pytest.param("٣٧.٥٠", id="arabic-indic"),
        pytest.param("３７.５０", id="full-width"),
        pytest.param("३७.५०", id="devanagari"),
        pytest.param("37.٥٠", id="mixed"),
    ],
)
def test_non_ascii_digits_are_not_an_amount(api, shown, amount):
    body = {**RIGHT, "answer": {"action": "pay", "amount": amount}}
    ledger = LedgerEntry.objects.count()
    error = assert_error(api.post(answers_url(shown), body, format="json"), 400, field="amount")
    assert "digits 0-9" in error["error"]
    assert nothing_recorded(ledger)


@pytest.mark.parametrize("amount", [37, 0, 12.5, 37.0, True, [], {}])
def test_a_json_number_or_other_type_is_not_an_amount(api, shown, amount):
    body = {**RIGHT, "answer": {"action": "pay", "amount": amount}}
    ledger = LedgerEntry.objects.count()
    error = assert_error(api.post(answers_url(shown), body, format="json"), 400)
    assert error["field"] == "answer.amount"
    assert "string" in error["error"]
    assert nothing_recorded(ledger)


def test_a_push_with_a_json_number_amount_is_refused(api, shown):
    body = {**RIGHT, "answer": {"action": "push", "amount": 0}}
    error = assert_error(api.post(answers_url(shown), body, format="json"), 400)
    assert error["field"] == "answer.amount"
    assert "string" in error["error"]


@pytest.mark.parametrize("amount", ["37.50", "37.5", " 37.50 ", "037.50"])
def test_ascii_amounts_with_up_to_two_decimals_are_accepted(api, shown, amount):
    body = {**RIGHT, "answer": {"action": "pay", "amount": amount}}
    response = api.post(answers_url(shown), body, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["decision"]["answer"]["amount"] == "37.50"


# JSON only.


@pytest.mark.parametrize("fmt", ["multipart", None])
def test_a_form_body_is_415_and_records_nothing(api, shown, fmt):
    form = {"position": "1", "question": "1", "answer": "pay"}
    if fmt is None:
        response = api.post(
            answers_url(shown),
            "position=1&question=1",
            content_type="application/x-www-form-urlencoded",
        )
    else:
        response = api.post(answers_url(shown), form, format=fmt)
    error = assert_error(response, 415, code="unsupported_media_type")
    assert "application/json" in error["error"]
    assert Decision.objects.count() == 0


def test_a_form_body_cannot_start_an_attempt(api, shown):
    response = api.post(
        "/api/attempts/",
        f"drill={shown.drill_id}&mode=practice",
        content_type="application/x-www-form-urlencoded",
    )
    assert_error(response, 415)
    assert Attempt.objects.count() == 1


def test_a_json_body_in_a_bad_encoding_is_a_clear_400(api, shown):
    raw = json.dumps(RIGHT).encode("utf-16")
    response = api.post(answers_url(shown), raw, content_type="application/json")
    assert_error(response, 400, code="parse_error")


def test_a_charset_that_is_not_a_text_encoding_is_a_clear_400(api, shown):
    # bz2_codec is a codec Python knows, but it decompresses: refused before it runs.
    response = api.post(
        answers_url(shown), json.dumps(RIGHT), content_type="application/json; charset=bz2_codec"
    )
    error = assert_error(response, 400, code="parse_error")
    assert "'bz2_codec'" in error["error"]
    assert Decision.objects.count() == 0


def test_a_long_content_type_is_not_echoed_whole(api, shown):
    response = api.post(answers_url(shown), "x", content_type="text/" + "z" * 100_000)
    assert_error(response, 415, code="unsupported_media_type")
    assert len(response.content) < 300


# Pages.


@pytest.mark.parametrize("page", ["0", "-1", "abc", "2", "last", "1.5", "9" * 400])
@pytest.mark.parametrize("url", ["/api/attempts/", "/api/assignments/"])
def test_a_bad_page_number_is_a_400_naming_page(api, shown, url, page):
    error = assert_error(api.get(url, {"page": page}), 400, field="page")
    assert len(error["error"]) < 200


def test_page_one_of_an_empty_list_is_fine(api):
    response = api.get("/api/attempts/", {"page": "1"})
    assert response.status_code == 200
    assert response.json()["results"] == []


# Unknown URLs under /api/.


@pytest.mark.parametrize(
    "url",
    [
        "/api/attempts/abc/",
        "/api/attempts/abc/question",
        "/api/attempts/1/nothing",
        "/api/nothing",
        "/api/",
    ],
)
def test_an_unknown_api_url_is_a_json_404(api, url):
    assert_error(api.get(url), 404, code="not_found")
    assert_error(api.post(url, {}, format="json"), 404, code="not_found")
    assert_error(api.delete(url), 404, code="not_found")


def test_an_attempt_id_past_any_integer_column_is_a_json_404(api):
    assert_error(api.get("/api/attempts/99999999999999999999999/"), 404, code="not_found")


def test_an_unknown_api_url_is_a_json_404_when_signed_out(db):
    assert_error(APIClient().get("/api/attempts/abc/"), 404, code="not_found")


def test_an_unknown_page_outside_the_api_is_still_html(client):
    response = client.get("/nothing-here/")
    assert response.status_code == 404
    assert not response["Content-Type"].startswith("application/json")


# Filters (found by the schema fuzz: an empty value was silently no filter).


@pytest.mark.parametrize(
    ("url", "param"),
    [
        ("/api/assignments/", "due_before"),
        ("/api/assignments/", "mode"),
        ("/api/attempts/", "status"),
        ("/api/attempts/", "grading_status"),
    ],
)
def test_an_empty_filter_is_a_400_naming_it(api, shown, url, param):
    error = assert_error(api.get(url, {param: ""}), 400, field=param)
    assert "empty" in error["error"]


def test_a_date_filter_that_is_not_a_date_is_a_400(api, shown):
    assert_error(api.get("/api/assignments/", {"due_before": "soon"}), 400, field="due_before")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        # Found by the schema fuzz on PostgreSQL, which refused the offset with a 500.
        ("0761-03-14T22:37:54-21:33", "between -12:00 and +14:00"),
        ("0001-01-01T00:30:00+01:00", "out of range"),
    ],
)
def test_a_date_filter_with_an_impossible_offset_is_a_400(api, shown, value, message):
    error = assert_error(api.get("/api/assignments/", {"due_after": value}), 400, field="due_after")
    assert message in error["error"]


def test_a_date_filter_with_an_offset_compares_in_utc(api, shown):
    assert (
        api.get("/api/assignments/", {"due_after": "2026-03-10T23:00:00+14:00"}).status_code == 200
    )
