"""Issue #24, finding 7: due dates were entered and shown in UTC, while a floor works in
local time. The house's zone (SHOESCHOOL_TIME_ZONE) is where a due date is typed, on the
pages and (without an offset) on the API, and where it is shown back."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, override_settings
from django.urls import reverse

from config.settings.house_zone import house_zone_name, system_zone_name, zone_checked
from teaching.services.assignments import assignment_create
from tests.audit.factories import TrainingClassFactory
from tests.graded import client_for
from tests.trainer.factories import DrillFactory, natural_document
from trainer.models import Assignment, Mode

ROOT = Path(__file__).resolve().parent.parent.parent
NEW_YORK = "America/New_York"
# 22:00 on a November evening in New York (EST, UTC-05:00) is 03:00 UTC the next day.
EVENING = dt.datetime(2030, 11, 21, 3, 0, tzinfo=dt.UTC)

house = override_settings(TIME_ZONE=NEW_YORK)


@pytest.fixture
def drill(db):
    return DrillFactory(documents=[natural_document()])


@pytest.fixture
def morning(trainee, pit_boss):
    return TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])


# --- the setting -------------------------------------------------------------------------


def _settings_zone(**env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in {"TIME_ZONE", "SHOESCHOOL_TIME_ZONE"}}
    code = (
        "import django; django.setup(); from django.conf import settings; print(settings.TIME_ZONE)"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings.test", **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_house_zone_is_read_from_shoeschool_time_zone():
    result = _settings_zone(SHOESCHOOL_TIME_ZONE=NEW_YORK)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == NEW_YORK


def test_a_zone_that_does_not_exist_stops_the_start_naming_the_variable():
    result = _settings_zone(SHOESCHOOL_TIME_ZONE="America/Atlantis")
    assert result.returncode != 0
    assert "SHOESCHOOL_TIME_ZONE is 'America/Atlantis', which is not a time zone" in result.stderr


@pytest.mark.parametrize("name", ["Mars/Olympus", "../../etc/passwd", "EST5EDT,M3", "/abs"])
def test_zone_checked_refuses_what_zoneinfo_does_not_know(name):
    with pytest.raises(ImproperlyConfigured, match="SHOESCHOOL_TIME_ZONE"):
        zone_checked(name)


def test_the_variable_wins_over_its_older_name_and_tests_default_to_utc():
    given = {"SHOESCHOOL_TIME_ZONE": "Europe/London", "TIME_ZONE": NEW_YORK}
    assert house_zone_name(given=given, environment="production") == "Europe/London"
    assert house_zone_name(given={"TIME_ZONE": NEW_YORK}, environment="production") == NEW_YORK
    assert house_zone_name(given={"SHOESCHOOL_TIME_ZONE": ""}, environment="test") == "UTC"


def test_unset_it_is_this_computers_zone(tmp_path):
    named = tmp_path / "timezone"
    named.write_text("Europe/Madrid\n")
    nothing = tmp_path / "missing"
    assert system_zone_name(tz=":America/Chicago") == "America/Chicago"
    assert system_zone_name(tz="", timezone_file=named) == "Europe/Madrid"
    link = tmp_path / "localtime"
    link.symlink_to("/usr/share/zoneinfo/Asia/Tokyo")
    assert system_zone_name(tz="", timezone_file=nothing, localtime=link) == "Asia/Tokyo"
    utc = tmp_path / "utc"
    utc.symlink_to("/usr/share/zoneinfo/Etc/UTC")
    assert system_zone_name(tz="", timezone_file=nothing, localtime=utc) == "UTC"
    assert system_zone_name(tz="", timezone_file=nothing, localtime=nothing) == "UTC"


# --- the pages ---------------------------------------------------------------------------


@house
def test_a_due_date_typed_as_22_00_in_new_york_is_03_00_utc_and_shown_back_as_22_00(
    drill, morning, pit_boss, trainee
):
    client = client_for(pit_boss)
    form = client.get(reverse("teach:assignments")).content.decode()
    assert "Times are in America/New_York" in form
    response = client.post(
        reverse("teach:assignments"),
        {
            "drill": drill.pk,
            "training_class": morning.pk,
            "mode": "practice",
            "due_day": "2030-11-20",
            "due_time": "22:00",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assignment = Assignment.objects.get()
    assert assignment.due_at == EVENING
    listed = client.get(reverse("teach:assignments")).content.decode()
    assert "20 Nov 2030 22:00 EST" in listed
    page = client.get(reverse("teach:assignment", args=[assignment.pk])).content.decode()
    assert "20 Nov 2030 22:00 EST" in page
    assert 'value="2030-11-20"' in page  # the reassign form starts from the day typed
    assert 'value="22:00"' in page
    home = client_for(trainee).get(reverse("train:home")).content.decode()
    assert "20 Nov 2030 22:00" in home
    assert "21 Nov 2030" not in home


@house
def test_a_reassigned_due_date_is_read_in_the_house_zone_too(drill, morning, pit_boss):
    assignment = assignment_create(
        drill=drill, mode=Mode.PRACTICE, training_class=morning, assigned_by=pit_boss
    )
    response = client_for(pit_boss).post(
        reverse("teach:assignment_reassign", args=[assignment.pk]),
        {"due_day": "2030-11-20", "due_time": "22:00"},
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assignment.refresh_from_db()
    assert assignment.due_at == EVENING


@house
@pytest.mark.parametrize("url_name", ["teach:assignments", "teach:assignment_reassign"])
def test_a_time_the_clocks_skip_is_refused_at_the_field(drill, morning, pit_boss, url_name):
    # 02:30 on 9 March 2031 never happens in New York: the clocks go from 02:00 to 03:00.
    assignment = assignment_create(
        drill=drill, mode=Mode.PRACTICE, training_class=morning, assigned_by=pit_boss
    )
    args = [assignment.pk] if url_name == "teach:assignment_reassign" else []
    body = {"due_day": "2031-03-09", "due_time": "02:30"}
    if not args:
        body |= {"drill": drill.pk, "training_class": morning.pk, "mode": "practice"}
    response = client_for(pit_boss).post(reverse(url_name, args=args), body)
    assert response.status_code == 400
    text = response.content.decode()
    assert "02:30 on 2031-03-09 does not exist in America/New_York" in text
    assert Assignment.objects.count() == 1
    assert Assignment.objects.get().due_at is None


# --- the API -----------------------------------------------------------------------------


def _api(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _assign(client: Client, drill, group, due_at: object) -> object:
    body = {"drill": drill.pk, "mode": "practice", "training_class": group.pk, "due_at": due_at}
    return client.post("/api/teach/assignments/", body, content_type="application/json")


@house
@pytest.mark.parametrize(
    "given",
    ["2030-11-20T22:00", "2030-11-20T22:00:00", "2030-11-20T22:00:00-05:00", "2030-11-21T03:00Z"],
)
def test_the_api_takes_a_time_without_an_offset_as_house_time_and_answers_with_one(
    drill, morning, pit_boss, trainee, given
):
    response = _assign(_api(pit_boss), drill, morning, given)
    assert response.status_code == 201, response.json()
    assert Assignment.objects.get().due_at == EVENING
    assert response.json()["due_at"] == "2030-11-20T22:00:00-05:00"
    mine = _api(trainee).get("/api/assignments/").json()["results"]
    assert [a["due_at"] for a in mine] == ["2030-11-20T22:00:00-05:00"]


@house
def test_the_api_reassigns_and_filters_in_house_time(drill, morning, pit_boss, trainee):
    assignment = assignment_create(
        drill=drill, mode=Mode.PRACTICE, training_class=morning, assigned_by=pit_boss
    )
    client = _api(pit_boss)
    response = client.post(
        f"/api/teach/assignments/{assignment.pk}/reassign",
        {"due_at": "2030-11-20T22:00"},
        content_type="application/json",
    )
    assert response.status_code == 200, response.json()
    assignment.refresh_from_db()
    assert assignment.due_at == EVENING
    mine = _api(trainee)
    # 21:59 house time is before it; 22:00 is not.
    assert mine.get("/api/assignments/", {"due_before": "2030-11-20T21:59"}).json()["count"] == 0
    assert mine.get("/api/assignments/", {"due_before": "2030-11-20T22:00"}).json()["count"] == 1


@house
def test_the_api_refuses_a_time_the_clocks_skip(drill, morning, pit_boss):
    response = _assign(_api(pit_boss), drill, morning, "2031-03-09T02:30")
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "due_at"
    assert "does not exist in America/New_York" in str(body)
    assert not Assignment.objects.exists()


@house
@pytest.mark.parametrize("given", ["9999-12-31T23:59", "0001-01-01T00:00+01:00"])
def test_the_api_refuses_a_due_date_past_the_calendars_end_without_a_500(
    drill, morning, pit_boss, given
):
    response = _assign(_api(pit_boss), drill, morning, given)
    assert response.status_code == 400
    assert response.json()["field"] == "due_at"
    assert not Assignment.objects.exists()


@house
def test_a_due_date_past_the_calendars_end_is_refused_at_the_field(drill, morning, pit_boss):
    response = client_for(pit_boss).post(
        reverse("teach:assignments"),
        {
            "drill": drill.pk,
            "training_class": morning.pk,
            "mode": "practice",
            "due_day": "9999-12-31",
            "due_time": "23:59",
        },
    )
    assert response.status_code == 400
    assert "the date is out of range" in response.content.decode()
    assert not Assignment.objects.exists()


@house
def test_of_the_hour_the_clocks_go_back_the_first_pass_is_meant(drill, morning, pit_boss):
    # 3 November 2030, 01:30 happens at 05:30 UTC (EDT) and again at 06:30 UTC (EST).
    response = _assign(_api(pit_boss), drill, morning, "2030-11-03T01:30")
    assert response.status_code == 201, response.json()
    assert Assignment.objects.get().due_at == dt.datetime(2030, 11, 3, 5, 30, tzinfo=dt.UTC)
    assert response.json()["due_at"] == "2030-11-03T01:30:00-04:00"
