"""A grade's cost in a game that counts points (NULL in one that counts money, every grade
so far). The ledger hashes it only where a grade has one, so the grades vouched for before
keep their digests (trainer.services.vouched.GRADE_LATER)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('trainer', '0022_grade_category_of_its_game'),
    ]

    operations = [
        migrations.AddField(
            model_name='grade',
            name='points_diff',
            field=models.DecimalField(blank=True, decimal_places=2, max_digits=14, null=True),
        ),
    ]
