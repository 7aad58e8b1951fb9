"""Join requests and notifications, moved from the trainer app: in Django's state only.

The tables stay as trainer's migrations made them (trainer_classjoinrequest and
trainer_notification, named in the models' ``db_table``), so no data moves and nothing is
dropped or created: trainer 0025 removes the two models from trainer's state, this adds
them to teaching's. The content types move with them, so permissions on them keep their
rows.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


MOVED = ("classjoinrequest", "notification")


def _move_content_types(apps, source, target):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MOVED:
        if not ContentType.objects.filter(app_label=target, model=model).exists():
            ContentType.objects.filter(app_label=source, model=model).update(app_label=target)


def content_types_to_teaching(apps, schema_editor):
    _move_content_types(apps, "trainer", "teaching")


def content_types_to_trainer(apps, schema_editor):
    _move_content_types(apps, "teaching", "trainer")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('trainer', '0025_join_requests_and_notifications_to_teaching'),
        ('contenttypes', '0002_remove_content_type_name'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Notification',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('assigned', 'A drill was assigned'), ('due_soon', 'An assignment is due within a day'), ('retraining', 'A retraining flag'), ('certified', 'A certification was signed'), ('expiring', 'A certification expires within 30 days')], max_length=16)),
                        ('key', models.CharField(max_length=200, unique=True)),
                        ('subject', models.CharField(max_length=300)),
                        ('sent_at', models.DateTimeField(auto_now_add=True)),
                        ('recipient', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='notifications', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'trainer_notification',
                        'ordering': ['-sent_at'],
                    },
                ),
                migrations.CreateModel(
                    name='ClassJoinRequest',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('requested_at', models.DateTimeField(auto_now_add=True)),
                        ('note', models.CharField(blank=True, max_length=500)),
                        ('status', models.CharField(choices=[('pending', 'Waiting for an answer'), ('accepted', 'Accepted'), ('declined', 'Declined')], default='pending', max_length=16)),
                        ('decided_at', models.DateTimeField(blank=True, null=True)),
                        ('decided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('requested_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('trainee', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('training_class', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='join_requests', to='trainer.trainingclass')),
                    ],
                    options={
                        'db_table': 'trainer_classjoinrequest',
                        'ordering': ['-requested_at', '-id'],
                        'constraints': [models.UniqueConstraint(condition=models.Q(('status', 'pending')), fields=('training_class', 'trainee'), name='one_pending_join_request')],
                    },
                ),
            ]
        ),
        migrations.RunPython(content_types_to_teaching, content_types_to_trainer),
    ]
