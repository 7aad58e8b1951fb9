"""Join requests and notifications moved from trainer to teaching in Django's state only:
the rows a filled database holds are teaching's afterwards, untouched, and the move runs
back as well as forward."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from teaching.models import ClassJoinRequest, Notification, NotificationKind
from trainer.models import TrainingClass

BEFORE = [("teaching", None), ("trainer", "0024_rule_profile_of_a_game")]


@pytest.mark.django_db(transaction=True)
def test_a_filled_database_keeps_its_join_requests_and_notifications(django_user_model, trainee):
    boss = django_user_model.objects.create(username="boss")
    training_class = TrainingClass.objects.create(name="Days")
    request = ClassJoinRequest.objects.create(
        training_class=training_class, trainee=trainee, requested_by=boss, note="please"
    )
    notification = Notification.objects.create(
        kind=NotificationKind.ASSIGNED, key="assigned:1:1", recipient=trainee, subject="A drill"
    )
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE[1]).apps
    assert old.get_model("trainer", "Notification").objects.get().subject == "A drill"
    assert ContentType.objects.filter(app_label="trainer", model="notification").exists()

    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert ClassJoinRequest.objects.get().pk == request.pk
    assert ClassJoinRequest.objects.get().note == "please"
    assert Notification.objects.get().pk == notification.pk
    assert set(
        ContentType.objects.filter(model__in=["notification", "classjoinrequest"]).values_list(
            "app_label", flat=True
        )
    ) == {"teaching"}
