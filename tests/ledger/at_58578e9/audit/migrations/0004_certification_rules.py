"""Certifications expire, and record the signer's role, any override of a retraining flag
and the warnings acknowledged.

Certifications signed before this migration get the expiry they would have had:
SHOESCHOOL_CERT_VALID_MONTHS (12 unless set) after they were signed. The ledger keeps
what was signed then; only the new column is filled in.
"""

import calendar

from django.conf import settings
from django.db import migrations, models


def _add_months(moment, months):
    index = moment.month - 1 + months
    year, month = moment.year + index // 12, index % 12 + 1
    day = min(moment.day, calendar.monthrange(year, month)[1])
    return moment.replace(year=year, month=month, day=day)


def set_expiry(apps, schema_editor):
    Certification = apps.get_model("audit", "Certification")
    months = int(getattr(settings, "SHOESCHOOL_CERT_VALID_MONTHS", 12))
    signed = Certification.objects.filter(withdrawn=False, expires_at__isnull=True)
    for pk, signed_at in signed.values_list("pk", "signed_at"):
        # A queryset update: the model refuses to save a certification twice.
        Certification.objects.filter(pk=pk).update(expires_at=_add_months(signed_at, months))


class Migration(migrations.Migration):

    dependencies = [
        ('audit', '0003_ledger_anchors'),
    ]

    operations = [
        migrations.AddField(
            model_name='certification',
            name='acknowledged',
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name='certification',
            name='expires_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='certification',
            name='flags_overridden',
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name='certification',
            name='override_reason',
            field=models.TextField(blank=True),
        ),
        migrations.AddField(
            model_name='certification',
            name='signer_role',
            field=models.CharField(blank=True, max_length=32),
        ),
        migrations.RunPython(set_expiry, migrations.RunPython.noop),
    ]
