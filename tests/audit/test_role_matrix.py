"""Every URL of the project against every role: who gets in, who is refused, who is told
the thing does not exist.

The URL patterns are collected from the resolver, so a new view is covered the moment it
is routed, and fails here until its expected statuses are written into EXPECTED. Objects
in the URLs belong to tina, a trainee of the class the pit boss ("boss") teaches; otto is
a trainee of another class, taught by "other-boss".
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from audit.models import ComplianceReport
from audit.services.reviews import certification_sign, retraining_flag_create
from teaching.services.assignments import assignment_create
from teaching.services.classes import class_join_request_create
from teaching.services.live_sessions import live_session_open
from tests.audit.factories import table_test
from tests.factories import PASSWORD
from tests.graded import RIGHT, make_attempt, signing_request, wrong
from tests.trainer.factories import DrillFactory, simple_document
from trainer.models import Grade, RuleProfile
from trainer.services.scenarios import scenario_import

ROLES = ("anonymous", "tina", "otto", "boss", "other_boss", "compliance", "admin")
# Django's admin pages check staff status themselves; the matrix covers its front door.
SKIPPED_NAMESPACES = ("admin",)


def _row(*statuses: int) -> dict[str, int]:
    assert len(statuses) == len(ROLES)
    return dict(zip(ROLES, statuses, strict=True))


# name: (method, statuses for anonymous, tina, otto, boss, other_boss, compliance, admin)
EXPECTED: dict[str, tuple[str, dict[str, int]]] = {
    "healthz": ("get", _row(200, 200, 200, 200, 200, 200, 200)),
    "login": ("get", _row(200, 200, 200, 200, 200, 200, 200)),
    "logout": ("post", _row(302, 302, 302, 302, 302, 302, 302)),
    # Changing a password needs a signed-in user; resetting one is for anyone (a reset link
    # that is not valid answers its own page, saying so).
    "password_change": ("get", _row(302, 200, 200, 200, 200, 200, 200)),
    "password_change_done": ("get", _row(302, 200, 200, 200, 200, 200, 200)),
    "password_reset": ("get", _row(200, 200, 200, 200, 200, 200, 200)),
    "password_reset_done": ("get", _row(200, 200, 200, 200, 200, 200, 200)),
    "password_reset_confirm": ("get", _row(200, 200, 200, 200, 200, 200, 200)),
    "password_reset_complete": ("get", _row(200, 200, 200, 200, 200, 200, 200)),
    "home": ("get", _row(302, 200, 200, 200, 200, 200, 200)),
    # The table cards: the house rules, for everyone signed in.
    "tables": ("get", _row(302, 200, 200, 200, 200, 200, 200)),
    "teach:index": ("get", _row(302, 403, 403, 200, 200, 403, 200)),
    # House rules: administrators only (issue #24); an empty post to the API is not JSON.
    "house_rules:index": ("get", _row(302, 403, 403, 403, 403, 403, 200)),
    "house_rules:table": ("get", _row(302, 403, 403, 403, 403, 403, 200)),
    "house_rules:change": ("get", _row(302, 403, 403, 403, 403, 403, 200)),
    "house_rules:copy": ("get", _row(302, 403, 403, 403, 403, 403, 200)),
    # Whether a table's certifications need a practical sheet: administrators only (an
    # empty form is refused in words, 400).
    "house_rules:practical": ("post", _row(302, 403, 403, 403, 403, 403, 400)),
    "api:house-rules": ("get", _row(403, 403, 403, 403, 403, 403, 200)),
    "api:house-rule": ("get", _row(403, 403, 403, 403, 403, 403, 200)),
    "api:house-rule-versions": ("post", _row(403, 403, 403, 403, 403, 403, 415)),
    "api:house-rule-copy": ("post", _row(403, 403, 403, 403, 403, 403, 415)),
    # The drill builder and scenario authoring: pit bosses and admins. The first to post
    # retires the drill; after that it is already retired (409). An empty table-test form
    # names no table (400): nothing is made.
    "teach:drills": ("get", _row(302, 403, 403, 200, 200, 403, 200)),
    "teach:drill-new-library": ("get", _row(302, 403, 403, 200, 200, 403, 200)),
    "teach:drill-new-generated": ("get", _row(302, 403, 403, 200, 200, 403, 200)),
    "teach:drill-table-test": ("post", _row(302, 403, 403, 400, 400, 403, 400)),
    # Only its owner or an administrator retires a drill; this exam's author is not
    # recorded, so only an administrator (issue #23).
    # A drill's own page and "Assign this drill" (issue #24): another class's drill is a 404.
    "teach:drill": ("get", _row(302, 403, 403, 200, 200, 403, 200)),
    "teach:drill-assign": ("post", _row(302, 403, 403, 400, 400, 403, 400)),
    "teach:drill-retire": ("post", _row(302, 403, 403, 403, 403, 403, 302)),
    "teach:scenarios": ("get", _row(302, 403, 403, 200, 200, 403, 200)),
    "teach:scenario-new": ("get", _row(302, 403, 403, 200, 200, 403, 200)),
    "teach:scenario-new-document": ("get", _row(302, 403, 403, 200, 200, 403, 200)),
    "teach:scenario-edit": ("get", _row(302, 403, 403, 200, 200, 403, 200)),
    # Classes and rosters: a pit boss's own classes (another's is 404), an admin's all.
    # An empty form: allowed writers get 400 (the form's errors), nothing is written.
    "teach:classes": ("get", _row(302, 403, 403, 200, 200, 403, 200)),
    "teach:class_create": ("get", _row(302, 403, 403, 200, 200, 403, 200)),
    "teach:roster_import": ("get", _row(302, 403, 403, 200, 200, 403, 200)),
    "teach:roster_template": ("get", _row(302, 403, 403, 200, 200, 403, 200)),
    "teach:class": ("get", _row(302, 403, 403, 200, 404, 403, 200)),
    "teach:class_rename": ("post", _row(302, 403, 403, 400, 404, 403, 400)),
    "teach:class_trainee_add": ("post", _row(302, 403, 403, 400, 404, 403, 400)),
    "teach:class_invite": ("post", _row(302, 403, 403, 400, 404, 403, 400)),
    "teach:class_trainee_remove": ("get", _row(302, 403, 403, 200, 404, 403, 200)),
    # tina chose her password: a new invitation is refused, said on the class's page.
    "teach:class_invitation_resend": ("post", _row(302, 403, 403, 302, 404, 403, 302)),
    "table_card": ("get", _row(302, 200, 200, 200, 200, 200, 200)),
    "admin:index": ("get", _row(302, 302, 302, 302, 302, 302, 200)),
    # The API documentation describes the API's shape, never anyone's data.
    "api-schema": ("get", _row(200, 200, 200, 200, 200, 200, 200)),
    "api-docs": ("get", _row(200, 200, 200, 200, 200, 200, 200)),
    # The trainee's API: trainees only; someone else's attempt does not exist.
    "api:assignments": ("get", _row(403, 200, 200, 403, 403, 403, 403)),
    "api:attempts": ("get", _row(403, 200, 200, 403, 403, 403, 403)),
    "api:practice-drills": ("get", _row(403, 200, 200, 403, 403, 403, 403)),
    "api:attempt": ("get", _row(403, 200, 404, 403, 403, 403, 403)),
    "api:attempt-question": ("get", _row(403, 200, 404, 403, 403, 403, 403)),
    "api:attempt-results": ("get", _row(403, 200, 404, 403, 403, 403, 403)),
    # tina's exam is submitted: a second submit is accepted as is; the client's empty
    # form body is refused before anything is read (415: the API takes JSON only).
    "api:attempt-answers": ("post", _row(403, 415, 404, 403, 403, 403, 403)),
    "api:attempt-submit": ("post", _row(403, 202, 404, 403, 403, 403, 403)),
    # The instructor's assignment API: pit bosses and admins, as the /teach/ pages; another
    # class's assignment does not exist. A form body is refused (JSON only); the boss's
    # cancel goes through, so the admin's after it finds it cancelled (409).
    "api:teach-assignments": ("get", _row(403, 403, 403, 200, 200, 403, 200)),
    "api:teach-assignment": ("get", _row(403, 403, 403, 200, 404, 403, 200)),
    "api:teach-assignment-reassign": ("post", _row(403, 403, 403, 415, 404, 403, 415)),
    "api:teach-assignment-cancel": ("post", _row(403, 403, 403, 200, 404, 403, 409)),
    "api:teach-assignment-board": ("get", _row(403, 403, 403, 200, 404, 403, 200)),
    # Classes in the API: pit bosses and admins; another boss's class does not exist. The
    # client's empty form body is refused before it is read (415: JSON only).
    "api:classes": ("get", _row(403, 403, 403, 200, 200, 403, 200)),
    "api:class": ("get", _row(403, 403, 403, 200, 404, 403, 200)),
    "api:class-trainees": ("post", _row(403, 403, 403, 415, 404, 403, 415)),
    "api:class-invitations": ("post", _row(403, 403, 403, 415, 404, 403, 415)),
    "api:roster-import": ("post", _row(403, 403, 403, 415, 415, 403, 415)),
    # The boss takes tina off the class; by the admin's turn she is no longer on it (404).
    "api:class-trainee": ("delete", _row(403, 403, 403, 204, 404, 403, 404)),
    # Any other URL under /api/: a JSON 404 for everyone, signed in or not.
    # Drills and scenarios: pit bosses and admins; a form body is refused unread (415).
    "api:drills": ("get", _row(403, 403, 403, 200, 200, 403, 200)),
    "api:drill": ("get", _row(403, 403, 403, 200, 200, 403, 200)),
    "api:drill-retire": ("post", _row(403, 403, 403, 415, 415, 403, 415)),
    "api:scenarios": ("get", _row(403, 403, 403, 200, 200, 403, 200)),
    "api:scenario": ("get", _row(403, 403, 403, 200, 200, 403, 200)),
    "api:scenario-revise": ("post", _row(403, 403, 403, 415, 415, 403, 415)),
    "api:no-endpoint": ("get", _row(404, 404, 404, 404, 404, 404, 404)),
    # The trainee's pages: trainees only; a submitted attempt's table leads to its results.
    "train:home": ("get", _row(302, 200, 200, 403, 403, 403, 403)),
    # A trainee's record is their own: it takes no id, so nobody can ask for another's.
    "record:mine": ("get", _row(302, 200, 200, 403, 403, 403, 403)),
    "train:start": ("post", _row(302, 400, 400, 403, 403, 403, 403)),
    # The sitting's briefing: the trainee's own assignment; another's does not exist.
    "train:briefing": ("get", _row(302, 200, 404, 403, 403, 403, 403)),
    "train:table": ("get", _row(302, 302, 404, 403, 403, 403, 403)),
    "train:answer": ("post", _row(302, 302, 404, 403, 403, 403, 403)),
    "train:feedback": ("get", _row(302, 302, 404, 403, 403, 403, 403)),
    "train:submit": ("post", _row(302, 302, 404, 403, 403, 403, 403)),
    "train:results": ("get", _row(302, 200, 404, 403, 403, 403, 403)),
    # Compliance: compliance officers and admins only. The report is still pending: 409.
    "compliance:index": ("get", _row(302, 403, 403, 403, 403, 200, 200)),
    "compliance:report_request": ("post", _row(302, 403, 403, 403, 403, 400, 400)),
    "compliance:report_download": ("get", _row(302, 403, 403, 403, 403, 409, 409)),
    "compliance:verify": ("post", _row(302, 403, 403, 403, 403, 200, 200)),
    "compliance:self_check": ("get", _row(302, 403, 403, 403, 403, 200, 200)),
    # The pit: pit bosses and compliance read, pit bosses of the class and admins act.
    "pit:dashboard": ("get", _row(302, 403, 403, 200, 200, 200, 200)),
    "pit:trainee": ("get", _row(302, 403, 403, 200, 404, 200, 200)),
    # A trainee's sections, each its own page: as the overview. Compliance reads the
    # sign-off page without its form (they never sign).
    "pit:trainee_mistakes": ("get", _row(302, 403, 403, 200, 404, 200, 200)),
    "pit:trainee_retraining": ("get", _row(302, 403, 403, 200, 404, 200, 200)),
    "pit:trainee_certification": ("get", _row(302, 403, 403, 200, 404, 200, 200)),
    "pit:trainee_practical": ("get", _row(302, 403, 403, 200, 404, 200, 200)),
    "pit:trainee_sign_off": ("get", _row(302, 403, 403, 200, 404, 200, 200)),
    # The review queue: a pit boss's own trainees', an administrator's every class, and
    # compliance reads everyone's (read-only); the next mistake is a redirect (to it, or to
    # the queue when nothing else waits).
    # Signature authority: the signers and their cards, read as the pit is; a trainee has
    # no card but for an administrator (who records a rank); only an administrator records.
    "pit:signers": ("get", _row(302, 403, 403, 200, 200, 200, 200)),
    "pit:signer_card": ("get", _row(302, 403, 403, 404, 404, 404, 200)),
    "pit:signer_authority_set": ("post", _row(302, 403, 403, 403, 403, 403, 400)),
    "pit:queue": ("get", _row(302, 403, 403, 200, 200, 200, 200)),
    "pit:queue_next": ("get", _row(302, 403, 403, 302, 302, 302, 302)),
    "pit:grade": ("get", _row(302, 403, 403, 200, 404, 200, 200)),
    # The training record: whoever may see the trainee's page; each download is logged.
    "pit:trainee_record": ("get", _row(302, 403, 403, 200, 404, 200, 200)),
    # An empty form: allowed writers get 400 (the form's errors), nothing is written.
    "pit:trainee_flag": ("post", _row(302, 403, 403, 400, 404, 403, 400)),
    "pit:trainee_certify": ("post", _row(302, 403, 403, 400, 404, 403, 400)),
    "pit:flag_lift": ("post", _row(302, 403, 403, 400, 404, 403, 400)),
    "pit:certification_withdraw": ("post", _row(302, 403, 403, 400, 404, 403, 400)),
    "pit:grade_review": ("post", _row(302, 403, 403, 400, 404, 403, 400)),
    # Remediation: a refresher, from the trainee's mistakes or from a flag (empty form: 400).
    "pit:trainee_refresher": ("post", _row(302, 403, 403, 400, 404, 403, 400)),
    "pit:flag_refresher": ("post", _row(302, 403, 403, 400, 404, 403, 400)),
    # Assignments in the workspace: pit bosses (their classes' own) and admins; another
    # class's assignment or board does not exist. Empty forms: 400, nothing written.
    "teach:assignments": ("get", _row(302, 403, 403, 200, 200, 403, 200)),
    "teach:assignment": ("get", _row(302, 403, 403, 200, 404, 403, 200)),
    "teach:assignment_reassign": ("post", _row(302, 403, 403, 400, 404, 403, 400)),
    "teach:assignment_cancel": ("post", _row(302, 403, 403, 400, 404, 403, 400)),
    "teach:class_board": ("get", _row(302, 403, 403, 200, 404, 403, 200)),
    # A trainee of another instructor's class: other-boss has asked for tina; the boss (her
    # instructor) answers, and by the admin's turn it is answered (404). The asker cannot
    # answer their own request. Transfers: administrators only (an empty form: 400).
    "teach:class_join_request": ("post", _row(302, 403, 403, 400, 404, 403, 400)),
    "teach:join_request_accept": ("post", _row(302, 403, 403, 302, 404, 403, 404)),
    "teach:join_request_decline": ("post", _row(302, 403, 403, 302, 404, 403, 404)),
    "teach:class_transfer": ("post", _row(302, 403, 403, 403, 403, 403, 400)),
    "api:join-requests": ("get", _row(403, 403, 403, 200, 200, 403, 200)),
    "api:join-request-accept": ("post", _row(403, 403, 403, 200, 404, 403, 404)),
    "api:join-request-decline": ("post", _row(403, 403, 403, 200, 404, 403, 404)),
    "api:class-join-requests": ("post", _row(403, 403, 403, 415, 404, 403, 415)),
    "api:class-transfers": ("post", _row(403, 403, 403, 403, 403, 403, 415)),
    # Administration (issue #24): administrators only, staff or not; everyone else 403, and
    # the services refuse them again. On tina: closing her account goes through; opening
    # it (it is open), unlocking (she is not locked) and the invitation again (she chose a
    # password) are refused on her page (409). Empty forms: 400, nothing written. The
    # boss stops teaching the class.
    "administration:index": ("get", _row(302, 403, 403, 403, 403, 403, 200)),
    "administration:people": ("get", _row(302, 403, 403, 403, 403, 403, 200)),
    "administration:person_create": ("get", _row(302, 403, 403, 403, 403, 403, 200)),
    "administration:person": ("get", _row(302, 403, 403, 403, 403, 403, 200)),
    "administration:person_roles": ("post", _row(302, 403, 403, 403, 403, 403, 400)),
    "administration:person_deactivate": ("post", _row(302, 403, 403, 403, 403, 403, 302)),
    "administration:person_reactivate": ("post", _row(302, 403, 403, 403, 403, 403, 409)),
    "administration:person_unlock": ("post", _row(302, 403, 403, 403, 403, 403, 409)),
    "administration:person_invitation": ("post", _row(302, 403, 403, 403, 403, 403, 409)),
    "administration:classes": ("get", _row(302, 403, 403, 403, 403, 403, 200)),
    "administration:class": ("get", _row(302, 403, 403, 403, 403, 403, 200)),
    "administration:class_instructor_add": ("post", _row(302, 403, 403, 403, 403, 403, 400)),
    "administration:class_instructor_remove": (
        "post",
        _row(302, 403, 403, 403, 403, 403, 302),
    ),
    "administration:trainee_move": ("get", _row(302, 403, 403, 403, 403, 403, 200)),
    # The same in the API: administrators only; a form body is refused unread (415).
    "api:people": ("get", _row(403, 403, 403, 403, 403, 403, 200)),
    "api:person": ("get", _row(403, 403, 403, 403, 403, 403, 200)),
    "api:person-roles": ("put", _row(403, 403, 403, 403, 403, 403, 400)),
    "api:person-close": ("post", _row(403, 403, 403, 403, 403, 403, 200)),
    "api:person-open": ("post", _row(403, 403, 403, 403, 403, 403, 409)),
    "api:person-unlock": ("post", _row(403, 403, 403, 403, 403, 403, 409)),
    "api:person-invitation": ("post", _row(403, 403, 403, 403, 403, 403, 409)),
    "api:class-instructors": ("post", _row(403, 403, 403, 403, 403, 403, 415)),
    "api:class-instructor": ("delete", _row(403, 403, 403, 403, 403, 403, 204)),
    # Live class sessions (issue #27): trainees join and sit (their own class session's
    # attempt only: tina's exam is no seat, 404); the class's instructor and
    # administrators lead, another class's instructor is told it does not exist.
    "live:join": ("get", _row(302, 200, 200, 403, 403, 403, 403)),
    "live:seat": ("get", _row(302, 404, 404, 403, 403, 403, 403)),
    "live:status": ("get", _row(302, 404, 404, 403, 403, 403, 403)),
    "teach:live-index": ("get", _row(302, 403, 403, 200, 200, 403, 200)),
    "teach:live": ("get", _row(302, 403, 403, 200, 404, 403, 200)),
    "teach:live-status": ("get", _row(302, 403, 403, 200, 404, 403, 200)),
    "teach:live-act": ("post", _row(302, 403, 403, 302, 404, 403, 302)),
    "teach:live-summary": ("get", _row(302, 403, 403, 200, 404, 403, 200)),
    "teach:live-summary-csv": ("get", _row(302, 403, 403, 200, 404, 403, 200)),
    # Certificates (issue #28): the verify page and the credentials' public documents are
    # for anyone, signed in or not; a certificate's PDF and credential are for whoever may
    # read the certification (tina's own, her class's pit boss, compliance, admins).
    "verify:form": ("get", _row(200, 200, 200, 200, 200, 200, 200)),
    "verify:code": ("get", _row(200, 200, 200, 200, 200, 200, 200)),
    "verify:credential": ("get", _row(200, 200, 200, 200, 200, 200, 200)),
    "credentials:issuer": ("get", _row(200, 200, 200, 200, 200, 200, 200)),
    "credentials:jwks": ("get", _row(200, 200, 200, 200, 200, 200, 200)),
    "credentials:status": ("get", _row(200, 200, 200, 200, 200, 200, 200)),
    "credentials:achievement": ("get", _row(302, 302, 302, 302, 302, 302, 302)),
    "credentials:certificate_pdf": ("get", _row(302, 200, 404, 200, 404, 200, 200)),
    "credentials:certificate_credential": ("get", _row(302, 200, 404, 200, 404, 200, 200)),
}


def _patterns(
    patterns: list[URLPattern | URLResolver], namespace: str | None = None
) -> Iterator[tuple[str, URLPattern]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = pattern.namespace
            joined = f"{namespace}:{inner}" if namespace and inner else (inner or namespace)
            yield from _patterns(pattern.url_patterns, joined)
        elif pattern.name:
            yield (f"{namespace}:{pattern.name}" if namespace else pattern.name), pattern


def routed_names() -> list[str]:
    names = {
        name
        for name, _ in _patterns(get_resolver().url_patterns)
        if name.split(":")[0] not in SKIPPED_NAMESPACES
    }
    return sorted(names | {"admin:index"})


@pytest.fixture
def world(pit, trainee, other_trainee, pit_boss, compliance_officer, admin_user) -> dict[str, Any]:
    """tina's work (an exam, a mistake, a flag, a certification), a pending report, and a
    user per role."""
    exam = make_attempt(trainee=trainee, answers=[RIGHT] * 49 + [wrong("5.00")])
    mistake = Grade.objects.get(run__attempt=exam, correct=False)
    flag = retraining_flag_create(trainee=trainee, flagged_by=pit_boss, reason="Rounding")
    certified = make_attempt(trainee=trainee, answers=[RIGHT] * 50, drill=table_test())
    certification = certification_sign(
        trainee=trainee,
        profile=RuleProfile.objects.get(name="casino-shoe"),
        attempt=certified,
        signer=pit_boss,
        password=PASSWORD,
        statement="ok",
        request=signing_request(),
        override_reason="The flag is for rounding on 6:5; this table pays 3:2",
    )
    authored = scenario_import(documents=[{**simple_document("matrix"), "skills": ["push"]}])[0]
    assignment = assignment_create(
        drill=DrillFactory.create(),
        mode="practice",
        training_class=pit["mine"],
        assigned_by=pit_boss,
    )
    join = class_join_request_create(
        actor=pit["other_boss"], training_class=pit["theirs"], trainee=trainee
    )
    report = ComplianceReport.objects.create(
        period_start=dt.date(2026, 1, 1), period_end=dt.date(2026, 1, 31), format="csv"
    )
    live = live_session_open(
        user=pit_boss,
        training_class=pit["mine"],
        drill=DrillFactory.create(documents=[simple_document("live")]),
    )
    return {
        "users": {
            "anonymous": None,
            "tina": trainee,
            "otto": other_trainee,
            "boss": pit_boss,
            "other_boss": pit["other_boss"],
            "compliance": compliance_officer,
            "admin": admin_user,
        },
        "kwargs": {
            "attempt_id": exam.pk,
            "trainee_id": trainee.pk,
            "class_id": pit["mine"].pk,
            "grade_id": mistake.pk,
            "flag_id": flag.pk,
            "certification_id": certification.pk,
            "code": certification.certificate.shown,
            "position": 1,
            "report_id": report.pk,
            "uidb64": "MQ",
            "token": "not-a-valid-token",
            "name": "casino-shoe",
            "drill_id": exam.drill_id,
            "scenario_id": authored.pk,
            "assignment_id": assignment.pk,
            "request_id": join.pk,
            "person_id": trainee.pk,
            "instructor_id": pit_boss.pk,
            "session_id": live.pk,
            "action": "open",
        },
    }


def _url(name: str, world: dict[str, Any]) -> str:
    pattern = dict(_patterns(get_resolver().url_patterns)).get(name)
    params = list(pattern.pattern.converters) if pattern is not None else []
    missing = [p for p in params if p not in world["kwargs"]]
    if missing:
        pytest.fail(
            f"{name} takes {', '.join(missing)}: add an object for it to the `world` fixture "
            "of tests/audit/test_role_matrix.py"
        )
    return reverse(name, kwargs={p: world["kwargs"][p] for p in params})


@pytest.mark.parametrize("name", routed_names())
def test_each_role_gets_the_expected_status(name, world):
    if name not in EXPECTED:
        pytest.fail(
            f"URL {name!r} has no row in EXPECTED (tests/audit/test_role_matrix.py): add the "
            "status each role must get, so the view's role and ownership checks are tested"
        )
    method, expected = EXPECTED[name]
    url = _url(name, world)
    got = {}
    for role in ROLES:
        client = Client()
        user = world["users"][role]
        if user is not None:
            client.force_login(user)
        response = getattr(client, method)(url)
        got[role] = response.status_code
    assert got == expected, f"{method.upper()} {url}"


def test_every_row_of_the_table_is_still_routed():
    stale = set(EXPECTED) - set(routed_names())
    assert not stale, f"remove these names from EXPECTED, no URL has them now: {sorted(stale)}"
