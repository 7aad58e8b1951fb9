"""A pit boss's sign-off password counts towards the same lockout as the login page: a
trainee at the pit boss's unlocked screen cannot guess their way to a certification."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from audit.models import Certification
from audit.services.reviews import certification_sign, certification_withdraw
from core.errors import ProductError
from tests.audit.factories import table_test
from tests.factories import PASSWORD
from tests.graded import RIGHT, client_for, make_attempt, signing_request
from trainer.models import RuleProfile


@pytest.fixture
def exam(pit, trainee):
    return make_attempt(trainee=trainee, answers=[RIGHT] * 50, drill=table_test("casino-shoe"))


@pytest.fixture
def shoe():
    return RuleProfile.objects.get(name="casino-shoe")


def sign(trainee, exam, signer, shoe, password, *, address: str = "127.0.0.1"):
    return certification_sign(
        trainee=trainee,
        profile=shoe,
        attempt=exam,
        signer=signer,
        password=password,
        statement="ok",
        request=signing_request(address),
    )


def test_thirty_wrong_sign_off_passwords_then_the_right_one_signs_nothing(
    exam, trainee, pit_boss, shoe
):
    for _ in range(30):
        with pytest.raises(ProductError):
            sign(trainee, exam, pit_boss, shoe, "guess")
    with pytest.raises(ProductError) as caught:
        sign(trainee, exam, pit_boss, shoe, PASSWORD)
    assert caught.value.status == 429
    assert caught.value.field == "password"
    assert "Too many wrong passwords" in caught.value.message
    assert not Certification.objects.exists()


def test_wrong_sign_off_passwords_under_the_limit_still_let_the_signer_sign(
    exam, trainee, pit_boss, shoe
):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        with pytest.raises(ProductError, match="not right"):
            sign(trainee, exam, pit_boss, shoe, "guess")
    assert sign(trainee, exam, pit_boss, shoe, PASSWORD).signed_by == pit_boss


def test_sign_off_guesses_lock_the_signers_login_from_there_too(exam, trainee, pit_boss, shoe):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        with pytest.raises(ProductError):
            sign(trainee, exam, pit_boss, shoe, "guess", address="10.0.0.8")
    login = Client(REMOTE_ADDR="10.0.0.8").post(
        "/accounts/login/", {"username": "boss", "password": PASSWORD}
    )
    assert login.status_code == 429


def test_login_guesses_lock_the_sign_off_from_there_too(exam, trainee, pit_boss, shoe):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        Client(REMOTE_ADDR="10.0.0.9").post(
            "/accounts/login/", {"username": "boss", "password": "guess"}
        )
    with pytest.raises(ProductError, match="Too many wrong passwords"):
        sign(trainee, exam, pit_boss, shoe, PASSWORD, address="10.0.0.9")


def test_guesses_at_the_signer_from_elsewhere_do_not_stop_the_signature(
    exam, trainee, pit_boss, shoe
):
    # Issue #23, finding 4: a trainee guessing at the pit boss's password from another
    # address (many, even) neither locks nor slows the pit boss's sign-off: the signer is
    # signed in, re-entering their own password, and keeps only their own limit.
    guess_from_many_addresses("boss", network="10.0.1")
    assert sign_while_signed_in(trainee, exam, pit_boss, shoe).signed_by == pit_boss


def test_a_locked_out_signer_cannot_withdraw_either(exam, trainee, pit_boss, shoe):
    cert = sign(trainee, exam, pit_boss, shoe, PASSWORD)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        with pytest.raises(ProductError):
            certification_withdraw(
                certification=cert,
                signer=pit_boss,
                password="guess",
                statement="x",
                request=signing_request(),
            )
    with pytest.raises(ProductError, match="Too many wrong passwords"):
        certification_withdraw(
            certification=cert,
            signer=pit_boss,
            password=PASSWORD,
            statement="x",
            request=signing_request(),
        )
    assert Certification.objects.count() == 1


def test_the_page_tells_a_locked_out_signer_why(pit, exam, trainee, pit_boss):
    client = client_for(pit_boss)
    url = reverse("pit:trainee_certify", args=[trainee.pk])
    form = {"profile": "casino-shoe", "attempt": exam.pk, "statement": "ok"}
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(url, {**form, "password": "guess"})
    response = client.post(url, {**form, "password": PASSWORD})
    assert response.status_code == 429
    html = response.content.decode()
    # The pit's page, with the form and the reason in place: the pit boss is still signed
    # in, so the login page's lockout notice would be the wrong page.
    assert f"<h1>{trainee.get_full_name()}" in html
    assert "Too many wrong passwords" in html
    assert "Nothing was signed." in html
    assert not Certification.objects.exists()


def test_a_signer_whose_username_has_capitals_is_not_slowed_by_others_either(
    exam, trainee, pit_boss, shoe
):
    pit_boss.username = "Boss"
    pit_boss.save()
    guess_from_many_addresses("BOSS", network="10.0.2")
    assert sign_while_signed_in(trainee, exam, pit_boss, shoe).signed_by == pit_boss


def guess_from_many_addresses(username, *, network):
    """Three times the limit of wrong passwords for ``username``, each from its own address."""
    for number in range(settings.AXES_FAILURE_LIMIT * 3):
        Client(REMOTE_ADDR=f"{network}.{number + 1}").post(
            "/accounts/login/", {"username": username, "password": "guess"}
        )


def sign_while_signed_in(trainee, exam, signer, profile):
    """The sign-off as the signed-in pit boss makes it, re-entering their own password."""
    request = signing_request("127.0.0.1")
    request.user = signer
    return certification_sign(
        trainee=trainee,
        profile=profile,
        attempt=exam,
        signer=signer,
        password=PASSWORD,
        statement="ok",
        request=request,
    )
