"""The OpenAPI schema validates and describes the trainee API; its docs page is served."""

import pytest
import yaml
from django.core.management import call_command


@pytest.fixture(scope="module")
def schema(tmp_path_factory):
    path = tmp_path_factory.mktemp("schema") / "schema.yaml"
    # --validate checks it against the OpenAPI 3 meta-schema; --fail-on-warn makes any
    # view drf-spectacular cannot describe an error.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(path))
    return yaml.safe_load(path.read_text())


def test_the_schema_lists_every_trainee_endpoint(schema):
    assert {
        "/api/assignments/",
        "/api/attempts/",
        "/api/attempts/{attempt_id}/",
        "/api/attempts/{attempt_id}/question",
        "/api/attempts/{attempt_id}/answers",
        "/api/attempts/{attempt_id}/submit",
        "/api/attempts/{attempt_id}/results",
    } <= set(schema["paths"])


def test_the_answer_request_and_responses_are_described(schema):
    post = schema["paths"]["/api/attempts/{attempt_id}/answers"]["post"]
    body = post["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert body.endswith("/AnswerInput")
    assert {"200", "201", "400", "403", "404", "409"} <= set(post["responses"])
    answer = schema["components"]["schemas"]["AnswerInput"]["properties"]["answer"]
    assert answer["$ref"].endswith("/AnswerBodySchema")


def test_amounts_are_strings_in_the_schema(schema):
    grade = schema["components"]["schemas"]["GradeOutput"]["properties"]
    assert grade["money_diff"]["type"] == "string"
    assert grade["money_diff"]["format"] == "decimal"


def test_no_question_schema_has_an_expected_answer(schema):
    question = schema["components"]["schemas"]["QuestionOutput"]["properties"]
    assert "expected" not in question
    assert "rule" not in question


@pytest.mark.django_db
def test_the_docs_page_and_schema_are_served(client, trainee):
    client.force_login(trainee)
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger-ui" in docs.content
    assert client.get("/api/schema/").status_code == 200


def operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            yield method, path, operation


def test_request_bodies_are_json_only(schema):
    bodies = [op["requestBody"] for _, _, op in operations(schema) if "requestBody" in op]
    assert bodies
    assert all(set(body["content"]) == {"application/json"} for body in bodies)


def test_every_operation_with_a_body_lists_413_and_415(schema):
    for method, path, op in operations(schema):
        if "requestBody" in op:
            assert {"400", "413", "415"} <= set(op["responses"]), (method, path)


def test_a_bad_page_is_a_listed_400_not_an_unlisted_404(schema):
    for path in ("/api/assignments/", "/api/attempts/"):
        get = schema["paths"][path]["get"]
        [page] = [p for p in get["parameters"] if p["name"] == "page"]
        assert page["schema"] == {"type": "integer", "minimum": 1}
        assert "400" in get["responses"]
        assert "404" not in get["responses"]


def test_amounts_in_answers_are_described_as_ascii_digit_strings(schema):
    amount = schema["components"]["schemas"]["AnswerBodySchema"]["properties"]["amount"]
    assert amount["type"] == "string"
    assert amount["pattern"] == r"^[0-9]{1,9}(\.[0-9]{1,2})?$"
