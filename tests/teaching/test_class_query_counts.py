"""Exact query counts of the class pages at two sizes (see tests/test_query_counts.py): a
page that queried once per class or per trainee would show it here."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.audit.factories import TrainingClassFactory
from tests.factories import UserFactory
from tests.graded import RIGHT, client_for, make_attempt
from tests.queries import assert_database_query_count

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("session_activity_unwritten")]

# The session with the user and roles, the classes with their counts, the join requests
# waiting for their answer.
CLASS_LIST_QUERIES = 3


@pytest.mark.parametrize("size", [1, 6])
def test_the_class_list_at_two_sizes(pit_boss, size):
    for n in range(size):
        trainees = [UserFactory(username=f"c{n}-{k}", roles=["trainee"]) for k in range(3)]
        TrainingClassFactory(name=f"Class {n}", trainees=trainees, instructors=[pit_boss])
    client = client_for(pit_boss)
    with assert_database_query_count(CLASS_LIST_QUERIES):
        assert client.get(reverse("teach:classes")).status_code == 200


# The session with the user and roles, the class, its roster (with last activity), its
# instructors, its join requests still waiting.
CLASS_PAGE_QUERIES = 5


@pytest.mark.parametrize("size", [1, 8])
def test_the_class_page_at_two_sizes(pit_boss, size):
    trainees = [UserFactory(username=f"r{k}", roles=["trainee"]) for k in range(size)]
    training_class = TrainingClassFactory(name="Roster", trainees=trainees, instructors=[pit_boss])
    make_attempt(trainee=trainees[0], answers=[RIGHT])
    client = client_for(pit_boss)
    with assert_database_query_count(CLASS_PAGE_QUERIES):
        assert client.get(reverse("teach:class", args=[training_class.pk])).status_code == 200


# With join requests waiting: the requests, the trainees' classes, those classes'
# instructors, however many wait.
WAITING_QUERIES = CLASS_LIST_QUERIES + 2


@pytest.mark.parametrize("size", [1, 5])
def test_the_class_list_with_join_requests_waiting(pit_boss, size):
    from teaching.services.classes import class_join_request_create

    asker = UserFactory(username="asker", roles=["pit_boss"])
    theirs = TrainingClassFactory(name="Theirs", instructors=[asker])
    trainees = [UserFactory(username=f"w{k}", roles=["trainee"]) for k in range(size)]
    TrainingClassFactory(name="Mine", trainees=trainees, instructors=[pit_boss])
    for trainee in trainees:
        class_join_request_create(actor=asker, training_class=theirs, trainee=trainee)
    client = client_for(pit_boss)
    with assert_database_query_count(WAITING_QUERIES):
        page = client.get(reverse("teach:classes"))
    assert page.content.decode().count("data-join-request=") == size
