"""The audit side's e-mails: a retraining flag, a certification signed, a certification
expiring within 30 days. Sent once each through trainer's notification_send."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from audit.certification import profile_label
from audit.models import Certification, RetrainingFlag
from teaching.models import NotificationKind
from teaching.services.notifications import LOOKBACK, notification_send
from trainer.labels import skill_words

EXPIRY_WARNING = timedelta(days=30)


def _skills(skills: list[str]) -> str:
    labels = skill_words()
    return ", ".join(str(labels.get(s, s)) for s in skills)


def audit_notify_sweep(*, now: datetime | None = None) -> int:
    """Every audit e-mail due and not yet sent; how many were sent."""
    now = now or timezone.now()
    sent = 0
    for flag in RetrainingFlag.objects.filter(
        active=True, created_at__gte=now - LOOKBACK
    ).select_related("trainee"):
        on = f" on {_skills(flag.skills)}" if flag.skills else ""
        sent += notification_send(
            kind=NotificationKind.RETRAINING,
            about=f"flag:{flag.pk}",
            recipient=flag.trainee,
            subject="You have been flagged for retraining",
            body=(
                f"Your pit boss has flagged you for retraining{on}.\n\nReason: {flag.reason}"
                "\n\nOpen My record to see it and any refresher drill assigned to you."
            ),
        )
    signed = Certification.objects.filter(
        withdrawn=False, signed_at__gte=now - LOOKBACK
    ).select_related("trainee", "profile")
    for certification in signed:
        sent += notification_send(
            kind=NotificationKind.CERTIFIED,
            about=f"certification:{certification.pk}",
            recipient=certification.trainee,
            subject=f"Certified: {profile_label(certification.profile)}",
            body=(
                f"You are certified to deal {profile_label(certification.profile)}, signed "
                f"by {certification.signer_full_name}."
                + (
                    f" It expires on {timezone.localtime(certification.expires_at):%d %B %Y}."
                    if certification.expires_at
                    else ""
                )
            ),
        )
    expiring = (
        Certification.objects.filter(
            withdrawn=False, expires_at__gt=now, expires_at__lte=now + EXPIRY_WARNING
        )
        .exclude(corrections__withdrawn=True)
        .select_related("trainee", "profile")
    )
    for certification in expiring:
        assert certification.expires_at is not None
        sent += notification_send(
            kind=NotificationKind.EXPIRING,
            about=f"certification:{certification.pk}",
            recipient=certification.trainee,
            subject=f"Your certification expires soon: {profile_label(certification.profile)}",
            body=(
                f"Your certification to deal {profile_label(certification.profile)} expires on "
                f"{timezone.localtime(certification.expires_at):%d %B %Y}. Ask your pit boss "
                "about sitting the table test again."
            ),
        )
    return sent
