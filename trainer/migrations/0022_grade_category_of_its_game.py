"""A grade's category is a code its game declares (or the shell's: late, unanswered),
labelled through the game: no choices in the database's model, so a game adds a category
without a migration. The column and its values are unchanged."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('trainer', '0021_true_skill_figures'),
    ]

    operations = [
        migrations.AlterField(
            model_name='grade',
            name='category',
            field=models.CharField(blank=True, max_length=32),
        ),
    ]
