import pytest
from django.urls import reverse

from tests.answered import PLAYER_WINS, make_attempt
from trainer.models import GradingRun, RunTrigger
from trainer.services.grading.execute import grading_run_execute
from trainer.services.grading.request import grading_request

pytestmark = pytest.mark.django_db

URL = reverse("admin:trainer_attempt_changelist")


def post_regrade(client, *attempts):
    return client.post(
        URL,
        {"action": "regrade", "_selected_action": [a.pk for a in attempts]},
        follow=True,
    )


def test_an_admin_regrades_the_selected_submitted_attempts(client, admin_user, attempt_of):
    attempt = attempt_of([PLAYER_WINS])
    grading_run_execute(run_id=grading_request(attempt=attempt).pk)
    not_submitted = attempt_of([PLAYER_WINS], submitted=False)
    client.force_login(admin_user)
    response = post_regrade(client, attempt, not_submitted)
    assert response.status_code == 200
    run = GradingRun.objects.get(trigger=RunTrigger.REGRADE)
    assert (run.attempt_id, run.number, run.requested_by_id) == (attempt.pk, 2, admin_user.pk)
    text = response.content.decode()
    assert "Queued 1 regrade run(s)." in text
    assert "1 attempt(s) not submitted" in text


def test_the_action_is_offered_in_the_attempt_list(client, admin_user, attempt_of):
    attempt_of([PLAYER_WINS])
    client.force_login(admin_user)
    assert "Regrade selected attempts" in client.get(URL).content.decode()


def test_staff_without_the_admin_role_are_not_offered_it(client, attempt_of):
    from django.contrib.auth.models import Permission

    from tests.factories import UserFactory

    attempt_of([PLAYER_WINS])
    clerk = UserFactory(username="clerk", is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_attempt"))
    client.force_login(clerk)
    page = client.get(URL)
    assert page.status_code == 200
    assert "Regrade selected attempts" not in page.content.decode()


def test_nobody_regrades_their_own_attempt(client, attempt_of, trainee):
    """Second pass of issue #23: an administrator who is also a trainee could make a rule
    profile version (or revise a scenario) to suit their answers and regrade their own
    sitting. A regrade of one's own attempt is refused, the others selected are queued."""
    from core.errors import ForbiddenError
    from tests.factories import UserFactory
    from trainer.services.grading.request import regrade_request

    duo = UserFactory(
        username="duo-admin", roles=["trainee", "admin"], is_staff=True, is_superuser=True
    )
    own = make_attempt(duo, [PLAYER_WINS])
    grading_run_execute(run_id=grading_request(attempt=own).pk)
    with pytest.raises(ForbiddenError, match="regrades their own"):
        regrade_request(attempts=[own], reason="rules corrected", requested_by=duo)
    client.force_login(duo)
    response = post_regrade(client, own)
    assert "regrades their own" in response.content.decode()
    assert not GradingRun.objects.filter(trigger=RunTrigger.REGRADE).exists()
