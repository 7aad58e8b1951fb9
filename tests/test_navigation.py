"""The top bar shows each person every part of the site they may open, and nothing else:
it is drawn from core.pages, the same rules the pages' access checks read, and these
tests hold the two together (and against the role matrix's statuses)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from core import pages
from tests.audit.test_role_matrix import EXPECTED
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

# What each role's top bar lists, written out: the rules in core.pages must give this.
NAV = {
    "trainee": ["training", "record", "tables"],
    "pit_boss": ["pit", "workspace", "tables"],
    "compliance_officer": ["pit", "compliance", "tables"],
    "admin_user": ["pit", "workspace", "compliance", "admin", "tables", "house_rules"],
}
# The role matrix's users, by the fixture that makes each here.
MATRIX_USER = {
    "tina": "trainee",
    "boss": "pit_boss",
    "compliance": "compliance_officer",
    "admin": "admin_user",
}
AREA_OF_NAMESPACE = {
    "train": pages.TRAINING,
    "record": pages.RECORD,
    "pit": pages.PIT,
    "compliance": pages.COMPLIANCE,
    "admin": pages.ADMINISTRATION,
    "administration": pages.ADMINISTRATION,
    "house_rules": pages.HOUSE_RULES,
}
NAV_ITEM = re.compile(r'<li data-area="([a-z_]+)"><a href="([^"]+)"')


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def nav_of(html: str) -> list[tuple[str, str]]:
    """The top bar's links as (area, address), in order."""
    bar = html.split('<nav aria-label="Main">', 1)[1].split("</nav>", 1)[0]
    return NAV_ITEM.findall(bar)


@pytest.mark.parametrize("fixture", list(NAV))
def test_the_top_bar_lists_every_part_the_role_may_open(request, fixture):
    user = request.getfixturevalue(fixture)
    client = signed_in(user)
    links = nav_of(client.get("/").content.decode())
    assert [area for area, _ in links] == NAV[fixture]
    # Every link answers, and every part's front page the bar leaves out refuses.
    for area in pages.AREAS:
        shown = area.key in NAV[fixture]
        status = client.get(area.url).status_code
        assert (status == 200) == shown, f"{fixture}: {area.url} answers {status}"
    for _, url in links:
        assert client.get(url).status_code == 200


@pytest.mark.parametrize("fixture", list(NAV))
def test_the_home_page_has_a_panel_for_each_part_in_the_bar(request, fixture):
    html = signed_in(request.getfixturevalue(fixture)).get("/").content.decode()
    panels = re.findall(r'data-panel="([a-z_]+)"', html)
    assert panels == NAV[fixture]


def test_every_page_a_role_may_read_in_the_role_matrix_is_under_a_part_of_its_bar():
    """The role matrix's statuses, read against core.pages: a role that gets a page of
    the pit, the trainer or compliance has that part in its bar, and the other way round."""
    for name, (method, statuses) in EXPECTED.items():
        area = AREA_OF_NAMESPACE.get(name.split(":")[0]) if ":" in name else None
        if area is None or method != "get":
            continue
        for matrix_user, fixture in MATRIX_USER.items():
            # Anything but a refusal is in: a 404 or a redirect is about the object, not the
            # role (Django's admin refuses by sending to its login page).
            status = statuses[matrix_user]
            refused = status == 403 or (area is pages.ADMINISTRATION and status == 302)
            assert (not refused) == (area.key in NAV[fixture]), (name, matrix_user, statuses)


def test_a_user_with_several_roles_sees_every_part_of_each(db):
    user = UserFactory(username="double", roles=["trainee", "compliance"])
    links = nav_of(signed_in(user).get("/").content.decode())
    assert [area for area, _ in links] == ["training", "record", "pit", "compliance", "tables"]


def test_an_admin_who_is_not_staff_gets_the_administration_link(db):
    # The Administration area is the product's own (issue #24): it opens to the role, staff
    # or not; Django's admin (staff only) is linked from it for those it opens to.
    user = UserFactory(username="groupadmin", roles=["admin"])
    client = signed_in(user)
    links = nav_of(client.get("/").content.decode())
    assert [area for area, _ in links] == [
        "pit",
        "workspace",
        "compliance",
        "admin",
        "tables",
        "house_rules",
    ]
    html = client.get(reverse("administration:index")).content.decode()
    assert 'href="/admin/"' not in html


def test_the_current_part_is_marked_in_the_bar(pit_boss):
    html = signed_in(pit_boss).get(reverse("pit:dashboard")).content.decode()
    assert '<a href="/pit/" aria-current="page">Pit</a>' in html


def test_the_bar_links_to_changing_the_password(trainee):
    html = signed_in(trainee).get("/").content.decode()
    assert f'href="{reverse("password_change")}"' in html


def test_a_refusal_inside_the_pit_keeps_the_top_bar_and_offers_a_way_back(
    compliance_officer, trainee
):
    # Compliance reads the pit but does not act in it: a flag is refused.
    response = signed_in(compliance_officer).post(
        reverse("pit:trainee_flag", args=[trainee.pk]), {"reason": "x"}
    )
    assert response.status_code == 403
    html = response.content.decode()
    assert [area for area, _ in nav_of(html)] == ["pit", "compliance", "tables"]
    way_back = html.split('class="way-back"', 1)[1].split("</p>", 1)[0]
    assert 'href="/"' in way_back
    assert 'href="/pit/"' in way_back
    assert 'href="/compliance/"' in way_back


def test_a_refusal_of_the_pit_to_a_trainee_leads_back_to_the_training(trainee):
    response = signed_in(trainee).get(reverse("pit:dashboard"))
    assert response.status_code == 403
    html = response.content.decode()
    assert [area for area, _ in nav_of(html)] == ["training", "record", "tables"]
    way_back = html.split('class="way-back"', 1)[1].split("</p>", 1)[0]
    assert 'href="/train/">My training' in way_back


def test_a_missing_page_offers_the_login_to_someone_signed_out(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert 'class="way-back"><a class="button primary" href="/accounts/login/">Log in' in html
    assert '<nav aria-label="Main">' not in html
