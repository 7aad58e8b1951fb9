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
