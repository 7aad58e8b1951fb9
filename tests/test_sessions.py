"""Issue #23, finding 8: sessions no longer last 14 days nor survive closing the browser on a
shared tablet. They end with the browser, after an idle time (pit and compliance sooner
than trainees), sooner on a sign-in marked "This is a shared device", and after a shift;
answering a question is activity, and a long question never ends a sitting."""

import time

import pytest
from django.conf import settings
from django.test import Client

from config.sessions import SEEN, SINCE
from tests.factories import PASSWORD
from tests.trainer.factories import AssignmentFactory, DrillFactory, simple_document
from trainer.models import Mode
from trainer.services.attempts import attempt_start

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"


def sign_in(username: str, **form: str) -> Client:
    client = Client()
    response = client.post(LOGIN, {"username": username, "password": PASSWORD, **form})
    assert response.status_code == 302
    return client


def idle_for(client: Client, seconds: float, key: str = SEEN) -> None:
    session = client.session
    session[key] = int(time.time() - seconds)
    session.save()


def signed_in(client: Client, page: str = "/train/") -> bool:
    return "_auth_user_id" in client.session and client.get(page).status_code == 200


def test_the_session_cookie_ends_with_the_browser(trainee):
    client = Client()
    response = client.post(LOGIN, {"username": "tina", "password": PASSWORD})
    cookie = response.cookies[settings.SESSION_COOKIE_NAME]
    assert cookie["max-age"] == ""
    assert cookie["expires"] == ""
    # And it stays one as it is renewed.
    idle_for(client, 60)
    renewed = client.get("/train/")
    if settings.SESSION_COOKIE_NAME in renewed.cookies:
        assert renewed.cookies[settings.SESSION_COOKIE_NAME]["max-age"] == ""


def test_a_trainee_is_signed_out_after_the_idle_time_and_told_why(trainee):
    client = sign_in("tina")
    minutes = settings.SHOESCHOOL_SESSION_IDLE_MINUTES
    idle_for(client, minutes * 60 - 60)
    assert signed_in(client)
    idle_for(client, minutes * 60 + 1)
    response = client.get("/train/", follow=True)
    assert "_auth_user_id" not in client.session
    assert response.redirect_chain[-1][0].startswith(LOGIN)
    assert f"signed out after {minutes} minutes without activity" in response.content.decode()


def test_activity_renews_the_session(trainee):
    client = sign_in("tina")
    minutes = settings.SHOESCHOOL_SESSION_IDLE_MINUTES
    idle_for(client, minutes * 60 - 60)
    assert signed_in(client)
    # The request just made counted: the idle time starts again from it.
    assert int(time.time()) - client.session[SEEN] < 5


def test_a_background_check_is_not_activity(trainee):
    client = sign_in("tina")
    idle_for(client, 120)
    before = client.session[SEEN]
    client.get("/train/", HTTP_X_SHOE_SCHOOL_POLL="1")
    assert client.session[SEEN] == before


@pytest.mark.parametrize("who", ["boss", "carla", "root"])
def test_pit_compliance_and_administrators_are_signed_out_sooner(
    who, pit_boss, compliance_officer, admin_user
):
    client = sign_in(who)
    staff = settings.SHOESCHOOL_SESSION_STAFF_IDLE_MINUTES
    assert staff < settings.SHOESCHOOL_SESSION_IDLE_MINUTES
    idle_for(client, staff * 60 + 1)
    client.get("/")
    assert "_auth_user_id" not in client.session


def test_a_shared_device_sign_in_ends_sooner(trainee):
    shared = settings.SHOESCHOOL_SESSION_SHARED_IDLE_MINUTES
    assert shared < settings.SHOESCHOOL_SESSION_IDLE_MINUTES
    client = sign_in("tina", shared_device="on")
    idle_for(client, shared * 60 + 1)
    client.get("/train/")
    assert "_auth_user_id" not in client.session
    # Without the box ticked the same pause is fine.
    client = sign_in("tina")
    idle_for(client, shared * 60 + 1)
    assert signed_in(client)


def test_the_login_page_offers_the_shared_device_box():
    html = Client().get(LOGIN).content.decode()
    assert 'name="shared_device" type="checkbox"' in html
    assert "This is a shared device" in html


def test_a_session_ends_after_a_shift_whatever_the_activity(trainee):
    client = sign_in("tina")
    idle_for(client, settings.SHOESCHOOL_SESSION_MAX_HOURS * 3600 + 1, key=SINCE)
    client.get("/train/")
    assert "_auth_user_id" not in client.session


def test_a_long_question_never_ends_a_sitting(trainee):
    # A question may allow up to an hour: thinking it over is not idleness.
    drill = DrillFactory(documents=[simple_document()], time_limit_seconds=3600)
    assignment = AssignmentFactory(drill=drill, mode=Mode.PRACTICE, trainee=trainee)
    attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE, assignment=assignment)
    client = sign_in("tina")
    idle_for(client, 50 * 60)
    assert signed_in(client)
    # Past the question's own time, the idle rule applies again.
    idle_for(client, 3600 + 5 * 60)
    client.get("/train/")
    assert "_auth_user_id" not in client.session


def test_a_sitting_of_short_questions_does_not_stretch_the_idle_time(trainee):
    drill = DrillFactory(documents=[simple_document()], time_limit_seconds=60)
    assignment = AssignmentFactory(drill=drill, mode=Mode.PRACTICE, trainee=trainee)
    attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE, assignment=assignment)
    client = sign_in("tina")
    idle_for(client, settings.SHOESCHOOL_SESSION_IDLE_MINUTES * 60 + 1)
    client.get("/train/")
    assert "_auth_user_id" not in client.session
