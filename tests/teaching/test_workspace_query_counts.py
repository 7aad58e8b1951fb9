"""Exact query counts of the drill builder's and the scenario library's lists (pages and
API), each at two sizes: a list that queried once per drill or scenario would show here."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.graded import client_for
from tests.queries import assert_database_query_count
from tests.trainer.factories import AssignmentFactory, DrillFactory, simple_document
from trainer.models import RuleProfile
from trainer.services.drills import drill_create
from trainer.services.scenarios import scenario_import

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("session_activity_unwritten")]


def _drills(size, boss, trainee):
    shoe = RuleProfile.objects.get(name="casino-shoe").current_version
    for n in range(size):
        fixed = DrillFactory(
            title=f"Fixed {n}", documents=[simple_document(f"r{size}-{n}-{k}") for k in range(2)]
        )
        AssignmentFactory(drill=fixed, trainee=trainee)
        drill_create(
            title=f"Generated {n}",
            kind="generated",
            profile_version=shoe,
            skills=["split"],
            min_stake="10",
            max_stake="100",
            user=boss,
        )


# The session with the user and roles (1), drills with their counts (1), their scenarios
# (1), the tables' profiles and versions for the table-test buttons (2).
DRILL_LIST_QUERIES = 5


@pytest.mark.parametrize("size", [1, 6])
def test_the_drill_list_at_two_sizes(pit_boss, trainee, size):
    _drills(size, pit_boss, trainee)
    client = client_for(pit_boss)
    with assert_database_query_count(DRILL_LIST_QUERIES):
        assert client.get(reverse("teach:drills")).status_code == 200


# The session with the user and roles (1), the profiles for the filter (1), the library (1).
LIBRARY_QUERIES = 3


@pytest.mark.parametrize("size", [1, 6])
def test_the_library_picker_and_the_scenario_list_at_two_sizes(pit_boss, trainee, size):
    _drills(size, pit_boss, trainee)
    client = client_for(pit_boss)
    with assert_database_query_count(LIBRARY_QUERIES):
        assert client.get(reverse("teach:drill-new-library")).status_code == 200
    with assert_database_query_count(SCENARIO_LIST_QUERIES):
        assert client.get(reverse("teach:scenarios")).status_code == 200


# The scenario list, paginated and filtered (issue #24): the session with the user and
# roles (1), the count for the pages (1), the page's rows (1), the tables for the filter (1).
SCENARIO_LIST_QUERIES = 4


@pytest.mark.parametrize("size", [1, 30])
def test_the_scenario_list_searched_and_paged_at_two_sizes(pit_boss, size):
    scenario_import(
        documents=[
            {**simple_document(f"split-{n}"), "title": f"Split round {n}", "skills": ["split"]}
            for n in range(size)
        ]
        + [{**simple_document("push-1"), "title": "A push", "skills": ["push"]}]
    )
    client = client_for(pit_boss)
    url = reverse("teach:scenarios")
    with assert_database_query_count(SCENARIO_LIST_QUERIES):
        response = client.get(url, {"q": "split round", "skill": "split", "page": "2"})
    rows = response.content.decode().count('aria-label="Edit ')
    assert rows == (min(size - 25, 25) if size > 25 else size)
    with assert_database_query_count(SCENARIO_LIST_QUERIES):
        text = client.get(url, {"skill": "push"}).content.decode()
    assert text.count('aria-label="Edit ') == 1


# The session with the user and roles (1), the page's count (1), drills (1), their scenarios (1).
API_DRILLS_QUERIES = 4


@pytest.mark.parametrize("size", [1, 6])
def test_the_api_lists_at_two_sizes(pit_boss, trainee, size):
    _drills(size, pit_boss, trainee)
    client = APIClient()
    client.force_login(pit_boss)
    with assert_database_query_count(API_DRILLS_QUERIES):
        assert client.get("/api/drills/").status_code == 200
    with assert_database_query_count(3):
        assert client.get("/api/scenarios/").status_code == 200


# A drill's own page (issue #24): the session with the user and roles (1), the drill with its
# scenarios (2: the drill, its rounds), the assignments of it the viewer manages (1), the
# classes for the assign form (1).
DRILL_PAGE_QUERIES = 5


@pytest.mark.parametrize("size", [1, 5])
def test_a_drills_page_at_two_sizes(admin_user, trainee, size):
    drill = DrillFactory(
        title="Fixed", documents=[simple_document(f"page-{size}-{k}") for k in range(size)]
    )
    for _ in range(size):
        AssignmentFactory(drill=drill, trainee=trainee)
    client = client_for(admin_user)
    client.get(reverse("teach:index"))  # the session's activity written before the count
    with assert_database_query_count(DRILL_PAGE_QUERIES):
        response = client.get(reverse("teach:drill", args=[drill.pk]))
    assert response.content.decode().count("data-assignment=") == size
