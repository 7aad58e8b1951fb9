"""Join requests and notifications move to the teaching app: in Django's state only.

Their tables (trainer_classjoinrequest, trainer_notification) stay as they are, named in
the models' ``db_table``; teaching 0001 adds the two models to its state and moves their
content types, so no data moves and nothing is dropped or created.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("trainer", "0024_rule_profile_of_a_game")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="ClassJoinRequest"),
                migrations.DeleteModel(name="Notification"),
            ]
        )
    ]
