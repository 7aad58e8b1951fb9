"""The API's one error shape, whatever raised the error (no database needed)."""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions

from core.errors import ConflictError, NotFoundError, ProductError
from trainer.api.exceptions import api_exception_handler


def handle(exc):
    response = api_exception_handler(exc, {})
    assert response is not None
    return response.status_code, response.data


def test_a_trainer_error_keeps_its_status_message_field_and_code():
    status, body = handle(ProductError("amount is not money", field="answer.amount", code="bad"))
    assert status == 400
    assert body == {"error": "amount is not money", "field": "answer.amount", "code": "bad"}


def test_not_found_and_conflict_map_to_404_and_409():
    assert handle(NotFoundError("no such attempt"))[0] == 404
    status, body = handle(ConflictError("already submitted"))
    assert status == 409
    assert body == {"error": "already submitted", "field": None, "code": "conflict"}


def test_a_nested_validation_error_names_the_dotted_field_in_the_message():
    exc = exceptions.ValidationError({"answer": {"amount": ["must not be negative"]}})
    status, body = handle(exc)
    assert status == 400
    assert body["field"] == "answer.amount"
    assert body["error"] == "answer.amount: must not be negative"


def test_a_validation_error_without_a_field_has_a_null_field():
    status, body = handle(exceptions.ValidationError("the round is over"))
    assert status == 400
    assert body == {"error": "the round is over", "field": None, "code": "invalid"}


def test_a_missing_field_keeps_drf_s_code():
    exc = exceptions.ValidationError({"position": [exceptions.ErrorDetail("required", "required")]})
    assert handle(exc)[1] == {
        "error": "position: required",
        "field": "position",
        "code": "required",
    }


def test_django_s_404_and_permission_denied_use_the_same_shape():
    assert handle(Http404()) == (404, {"error": "Not found.", "field": None, "code": "not_found"})
    status, body = handle(PermissionDenied())
    assert status == 403
    assert body["code"] == "permission_denied"


def test_an_unauthenticated_request_gets_the_same_shape():
    status, body = handle(exceptions.NotAuthenticated())
    assert status == 401
    assert body["code"] == "not_authenticated"
    assert body["field"] is None


def test_a_programming_error_is_left_to_surface_as_a_500():
    assert api_exception_handler(ZeroDivisionError(), {}) is None
