"""Load the six rule profiles of rule-profiles.md (trainer/rules/profiles.json) as version 1."""

from django.db import migrations


def load_builtin_profiles(apps, schema_editor):
    from trainer.rules import PROFILES, profile_to_dict

    RuleProfile = apps.get_model("trainer", "RuleProfile")
    RuleProfileVersion = apps.get_model("trainer", "RuleProfileVersion")
    for name, profile in PROFILES.items():
        record, _ = RuleProfile.objects.get_or_create(name=name, defaults={"title": name})
        if not RuleProfileVersion.objects.filter(profile=record).exists():
            parameters = profile_to_dict(profile)
            RuleProfileVersion.objects.create(
                profile=record,
                version=1,
                parameters=parameters,
                source=profile.source,
                assumed=list(profile.assumed),
                notes="As published in rule-profiles.md.",
            )


class Migration(migrations.Migration):
    dependencies = [("trainer", "0002_initial")]

    operations = [migrations.RunPython(load_builtin_profiles, migrations.RunPython.noop)]
