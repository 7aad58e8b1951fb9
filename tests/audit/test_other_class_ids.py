"""Second pass of issue #23, as a pit boss of another class: every id in a URL or a body
that names an object of a class they do not teach (a trainee, an attempt, a grade, a
review, a flag, a refresher, a certification, an assignment, a drill, a scenario, a class,
a join request) is refused with 403 or 404, shows nothing of it, and writes nothing.

tina is on Morning (the boss's); otto on Evening (other-boss's, the attacker's)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from audit.models import Certification, RetrainingFlag, Review
from audit.services.remediation import refresher_assign
from audit.services.reviews import review_create
from ledger.models import LedgerEntry
from teaching.models import ClassJoinRequest
from teaching.services import classes as services
from tests.audit.factories import TrainingClassFactory
from tests.audit.test_class_boundaries import tina_work  # noqa: F401 (a fixture)
from tests.factories import PASSWORD, UserFactory
from tests.teaching.test_workspace_scenarios import staged
from tests.trainer.factories import simple_document
from trainer.models import Assignment, Drill, Scenario, TrainingClass
from trainer.services.drills import drill_create
from trainer.services.scenario_authoring import scenario_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def morning(pit, trainee, pit_boss, tina_work):  # noqa: F811
    """Everything of Morning's an id could name."""
    review = review_create(grade=tina_work["mistake"], reviewer=pit_boss, comment="Count again")
    refresher = refresher_assign(trainee=trainee, user=pit_boss, skills=["push"])
    doc = {**simple_document(), "skills": ["push"]}
    doc.pop("id")
    scenario = scenario_create(document=doc, user=pit_boss)
    drill = drill_create(title="Morning pushes", kind="fixed", user=pit_boss, scenarios=[scenario])
    # A join request the boss made for a trainee of a third class: theirs to answer, not
    # the attacker's.
    night_boss = UserFactory(username="night-boss", roles=["pit_boss"])
    nina = UserFactory(username="nina", roles=["trainee"])
    TrainingClassFactory(name="Night", trainees=[nina], instructors=[night_boss])
    join = services.class_join_request_create(
        actor=pit_boss, training_class=pit["mine"], trainee=nina
    )
    return {
        **tina_work,
        "class": pit["mine"],
        "review": review,
        "refresher": refresher,
        "scenario": scenario,
        "drill": drill,
        "join": join,
        "tina": trainee,
    }


def cases(m: dict) -> list[tuple[str, str, dict | None]]:
    t, c = m["tina"].pk, m["class"].pk
    attempt, grade = m["certified"].pk, m["mistake"].pk
    flag, cert, a = m["flag"].pk, m["certification"].pk, m["assignment"].pk
    join, drill, scenario = m["join"].pk, m["drill"].pk, m["scenario"].pk
    return [
        # The pit's pages.
        ("get", f"/pit/trainees/{t}/", None),
        ("get", f"/pit/trainees/{t}/record.pdf", None),
        # A trainee's sections, the sign-off page, the review queue's next step (issue #24).
        ("get", f"/pit/trainees/{t}/mistakes/", None),
        ("get", f"/pit/trainees/{t}/retraining/", None),
        ("get", f"/pit/trainees/{t}/certification/", None),
        ("get", f"/pit/trainees/{t}/sign-off/", None),
        ("get", "/pit/queue/next/", {"after": grade}),
        ("post", f"/pit/trainees/{t}/flag/", {"reason": "mine"}),
        ("post", f"/pit/flags/{flag}/lift/", {"reason": "lifted"}),
        ("post", f"/pit/trainees/{t}/refresher/", {"due_in_days": 7}),
        ("post", f"/pit/flags/{flag}/refresher/", {"due_in_days": 7}),
        (
            "post",
            f"/pit/trainees/{t}/certify/",
            {
                "attempt": attempt,
                "statement": "mine",
                "override_reason": "override",
                "password": PASSWORD,
            },
        ),
        (
            "post",
            f"/pit/certifications/{cert}/withdraw/",
            {"statement": "gone", "password": PASSWORD},
        ),
        ("get", f"/pit/grades/{grade}/", None),
        ("post", f"/pit/grades/{grade}/review/", {"comment": "mine"}),
        # The workspace's pages.
        ("get", f"/teach/assignments/{a}/", None),
        ("post", f"/teach/assignments/{a}/reassign/", {"max_sittings": ""}),
        ("post", f"/teach/assignments/{a}/cancel/", {}),
        ("get", f"/teach/assignments/classes/{c}/board/", None),
        ("get", f"/teach/classes/{c}/", None),
        ("post", f"/teach/classes/{c}/rename/", {"name": "Mine"}),
        ("post", f"/teach/classes/{c}/trainees/add/", {"username": "otto"}),
        (
            "post",
            f"/teach/classes/{c}/trainees/invite/",
            {"username": "newbie", "email": "newbie@example.com"},
        ),
        ("post", f"/teach/classes/{c}/trainees/{t}/invite-again/", {}),
        ("post", f"/teach/classes/{c}/trainees/{t}/remove/", {}),
        ("post", f"/teach/classes/{c}/join-requests/", {"username": "tina"}),
        ("post", f"/teach/classes/join-requests/{join}/accept/", {}),
        ("post", f"/teach/classes/join-requests/{join}/decline/", {}),
        ("post", f"/teach/classes/{c}/transfer/", {"username": "otto"}),
        ("post", f"/teach/drills/{drill}/retire/", {}),
        ("post", f"/teach/scenarios/{scenario}/edit/", staged(title="Mine")),
        # The trainee's pages: tina's sittings.
        ("get", f"/train/attempts/{attempt}/", None),
        ("get", f"/train/attempts/{attempt}/results/", None),
        ("get", f"/train/attempts/{attempt}/rounds/1/feedback/", None),
        ("post", f"/train/attempts/{attempt}/submit/", {}),
        # The API.
        ("get", f"/api/attempts/{attempt}/", None),
        ("get", f"/api/attempts/{attempt}/results", None),
        ("get", f"/api/attempts/{attempt}/question", None),
        ("post", f"/api/attempts/{attempt}/submit", {}),
        ("get", f"/api/teach/assignments/{a}/", None),
        ("post", f"/api/teach/assignments/{a}/reassign", {"max_sittings": None}),
        ("post", f"/api/teach/assignments/{a}/cancel", {}),
        ("get", f"/api/teach/assignments/{a}/board", None),
        ("post", "/api/teach/assignments/", {"drill": drill, "mode": "practice", "trainee": t}),
        (
            "post",
            "/api/teach/assignments/",
            {"drill": drill, "mode": "practice", "training_class": c},
        ),
        ("get", f"/api/classes/{c}/", None),
        ("post", f"/api/classes/{c}/trainees/", {"username": "otto"}),
        ("delete", f"/api/classes/{c}/trainees/{t}/", None),
        (
            "post",
            f"/api/classes/{c}/invitations/",
            {"username": "newbie", "email": "newbie@example.com"},
        ),
        ("post", f"/api/classes/{c}/join-requests/", {"username": "tina"}),
        ("post", f"/api/classes/{c}/transfers/", {"username": "otto"}),
        ("post", f"/api/classes/join-requests/{join}/accept/", {}),
        ("post", f"/api/classes/join-requests/{join}/decline/", {}),
        ("post", f"/api/drills/{drill}/retire", {}),
        (
            "post",
            f"/api/scenarios/{scenario}/revise",
            {"document": {**m["scenario"].document, "title": "Mine"}},
        ),
    ]


def state() -> tuple:
    return (
        LedgerEntry.objects.count(),
        list(Review.objects.values_list("pk", "comment")),
        list(RetrainingFlag.objects.values_list("pk", "active")),
        list(Certification.objects.values_list("pk", "withdrawn")),
        list(Assignment.objects.values_list("pk", "max_sittings", "due_at", "cancelled_at")),
        list(TrainingClass.objects.values_list("pk", "name")),
        list(TrainingClass.trainees.through.objects.values_list("pk", flat=True)),
        list(ClassJoinRequest.objects.values_list("pk", "status")),
        list(Drill.objects.values_list("pk", "is_active")),
        list(Scenario.objects.values_list("pk", "is_active")),
    )


def test_every_id_of_another_class_is_refused_and_shows_nothing(morning, other_boss):
    page, api = Client(), APIClient()
    page.force_login(other_boss)
    api.force_authenticate(other_boss)
    before = state()
    leaks = []
    for method, url, body in cases(morning):
        if url.startswith("/api/"):
            response = getattr(api, method)(url, body, format="json")
        else:
            response = getattr(page, method)(url, body or {})
        text = response.content.decode(errors="replace")
        # The name as a word: a page's random CSRF token or nonce may hold its letters.
        if response.status_code not in (403, 404) or re.search(r"\btina\b", text, re.I):
            leaks.append((method, url, response.status_code))
    assert leaks == [], leaks
    assert state() == before
