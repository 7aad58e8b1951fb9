"""Sign-off on its own page and a trainee's record in sections (issue #24, finding 4): the
page offers only the sittings that can back a certification (the certification rule, as
the service applies it), chooses the one ready, and shows a refusal at the form; each
section has its own URL and reads only what it shows."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from audit.models import Certification
from tests.audit.factories import table_test
from tests.factories import PASSWORD, UserFactory
from tests.graded import RIGHT, client_for, make_attempt, wrong

pytestmark = pytest.mark.django_db

SECTIONS = (
    "pit:trainee",
    "pit:trainee_mistakes",
    "pit:trainee_retraining",
    "pit:trainee_certification",
    "pit:trainee_practical",
    "pit:trainee_sign_off",
)


def _options(html: str, name: str) -> list[tuple[str, bool]]:
    select = html.split(f'name="{name}"', 1)[1].split("</select>", 1)[0]
    return [
        (value, bool(selected))
        for value, selected in re.findall(r'<option value="([^"]*)"( selected)?', select)
    ]


@pytest.fixture
def sittings(pit, trainee):
    """A failed table test, a practice exam of the shoe (not its table test), then two
    passes of the table test, the newest last."""
    drill = table_test()
    # All sat before now: a signature made in the test comes after every one of them.
    now = timezone.now() - dt.timedelta(minutes=10)
    failed = make_attempt(
        trainee=trainee, answers=[wrong("1.00")] * 50, drill=drill, submitted_at=now
    )
    other = make_attempt(trainee=trainee, answers=[RIGHT] * 50, submitted_at=now)
    older = make_attempt(
        trainee=trainee,
        answers=[RIGHT] * 50,
        drill=drill,
        submitted_at=now + dt.timedelta(seconds=1),
    )
    ready = make_attempt(
        trainee=trainee,
        answers=[RIGHT] * 50,
        drill=drill,
        submitted_at=now + dt.timedelta(seconds=2),
    )
    return {"failed": failed, "other": other, "older": older, "ready": ready}


def test_the_page_offers_only_sittings_that_can_back_a_certification(sittings, trainee, pit_boss):
    url = reverse("pit:trainee_sign_off", args=[trainee.pk])
    html = client_for(pit_boss).get(url).content.decode()
    offered = _options(html, "attempt")
    assert offered == [
        ("", False),
        (str(sittings["ready"].pk), True),
        (str(sittings["older"].pk), False),
    ]
    assert _options(html, "profile") == [("", False), ("casino-shoe", True)]
    assert 'id="ready"' in html
    # The others are named apart, each with why it is not offered.
    not_offered = html.split('id="not-offered"', 1)[1]
    assert "the trainee did not pass it" in not_offered
    assert "it was not sat under a table test" in not_offered


def test_signing_the_preselected_sitting_and_landing_on_the_certification_section(
    sittings, trainee, pit_boss
):
    client = client_for(pit_boss)
    response = client.post(
        reverse("pit:trainee_certify", args=[trainee.pk]),
        {
            "profile": "casino-shoe",
            "attempt": sittings["ready"].pk,
            "statement": "Dealt to standard",
            "password": PASSWORD,
        },
    )
    assert response["Location"] == reverse("pit:trainee_certification", args=[trainee.pk])
    assert Certification.objects.get().attempt == sittings["ready"]
    # Signed on: the newest sitting is answered for, the older one sat before the signature.
    html = client.get(reverse("pit:trainee_sign_off", args=[trainee.pk])).content.decode()
    assert 'id="nothing-to-sign"' in html
    assert 'id="sign-off"' not in html


def test_a_refusal_is_shown_at_the_form_not_far_above_it(sittings, trainee, pit_boss):
    response = client_for(pit_boss).post(
        reverse("pit:trainee_certify", args=[trainee.pk]),
        {
            "profile": "casino-shoe",
            "attempt": sittings["failed"].pk,
            "statement": "Dealt to standard",
            "password": PASSWORD,
        },
    )
    assert response.status_code == 409
    html = response.content.decode()
    form = html.split('id="sign-off"', 1)[1].split("</form>", 1)[0]
    assert "Nothing was signed" in form
    # At the field that answers it: the sitting.
    attempt_field = form.split('name="attempt"', 1)[1].split('name="statement"', 1)[0]
    assert "the trainee did not pass it" in attempt_field
    # No copy of it far away at the top of the page.
    assert "the trainee did not pass it" not in html.split('id="sign-off"', 1)[0]
    assert not Certification.objects.exists()


def test_a_wrong_password_is_refused_at_the_password(sittings, trainee, pit_boss):
    response = client_for(pit_boss).post(
        reverse("pit:trainee_certify", args=[trainee.pk]),
        {
            "profile": "casino-shoe",
            "attempt": sittings["ready"].pk,
            "statement": "ok",
            "password": "not-mine",
        },
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="sign_password_error"' in html
    error = html.split('id="sign_password_error"', 1)[1].split("</div>", 1)[0]
    assert "the password is not right: nothing was signed" in error


def test_nothing_to_sign_says_so_and_offers_no_form(pit, trainee, pit_boss):
    make_attempt(trainee=trainee, answers=[wrong("1.00")] * 50, drill=table_test())
    html = client_for(pit_boss).get(reverse("pit:trainee_sign_off", args=[trainee.pk]))
    html = html.content.decode()
    assert 'id="nothing-to-sign"' in html
    assert 'name="password"' not in html
    assert "the trainee did not pass it" in html


@pytest.mark.parametrize("who", ["other_boss", "compliance", "duo", "self_admin"])
def test_the_sign_off_page_is_refused_to_whoever_may_not_sign(
    sittings, pit, trainee, other_boss, compliance_officer, admin_user, who
):
    if who == "duo":
        duo = UserFactory(username="duo", roles=["trainee", "pit_boss"])
        pit["mine"].trainees.add(duo)
        pit["mine"].instructors.add(duo)
        make_attempt(trainee=duo, answers=[RIGHT] * 50, drill=table_test())
        user, target, status = duo, duo, 403
    elif who == "self_admin":
        pit["mine"].trainees.add(admin_user)
        user, target, status = admin_user, admin_user, 403
    elif who == "other_boss":
        user, target, status = other_boss, trainee, 404
    else:
        # Compliance reads the page (the sittings and who signs), with no form.
        user, target, status = compliance_officer, trainee, 200
    client = client_for(user)
    response = client.get(reverse("pit:trainee_sign_off", args=[target.pk]))
    assert response.status_code == status
    html = response.content.decode()
    assert 'name="password"' not in html
    if status != 200:
        assert "Table test: " not in html
    else:
        assert "never sign them" in html
    signed = client.post(
        reverse("pit:trainee_certify", args=[target.pk]),
        {"profile": "casino-shoe", "attempt": sittings["ready"].pk, "statement": "x",
         "password": PASSWORD},
    )  # fmt: skip
    assert signed.status_code in (403, 404)
    assert not Certification.objects.exists()


def test_ones_own_sections_show_no_sign_off_tab_and_say_who_acts(pit, pit_boss):
    pit["mine"].trainees.add(pit_boss)
    client = client_for(pit_boss)
    for section in SECTIONS[:-1]:
        html = client.get(reverse(section, args=[pit_boss.pk])).content.decode()
        assert reverse("pit:trainee_sign_off", args=[pit_boss.pk]) not in html, section
        assert "This is your own training" in html


def test_every_section_has_its_own_url_and_tab(sittings, trainee, pit_boss):
    client = client_for(pit_boss)
    for section in SECTIONS:
        url = reverse(section, args=[trainee.pk])
        html = client.get(url).content.decode()
        tabs = html.split('class="pit-sections"', 1)[1].split("</ul>", 1)[0]
        assert f'href="{url}" aria-current="page"' in tabs, section
        assert tabs.count("<li>") == len(SECTIONS)


def test_a_refused_flag_is_shown_on_the_retraining_section(pit, trainee, pit_boss):
    response = client_for(pit_boss).post(reverse("pit:trainee_flag", args=[trainee.pk]), {})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'aria-current="page">Retraining<' in html
    assert "This field is required" in html
