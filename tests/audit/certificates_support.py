"""A signed certification with its certificate, for the certificate tests."""

from __future__ import annotations

import datetime as dt

from audit.models import Certification
from audit.services.reviews import certification_sign, certification_withdraw
from tests.audit.factories import table_test
from tests.factories import PASSWORD
from tests.graded import RIGHT, make_attempt, signing_request
from trainer.models import RuleProfile


def certify(trainee, signer, profile: str = "casino-shoe") -> Certification:
    RuleProfile.objects.filter(name="casino-shoe").update(title="Six-deck shoe")
    drill = table_test(profile)
    attempt = make_attempt(trainee=trainee, answers=[RIGHT] * 50, drill=drill)
    return certification_sign(
        request=signing_request(),
        trainee=trainee,
        profile=RuleProfile.objects.get(name=profile),
        attempt=attempt,
        signer=signer,
        password=PASSWORD,
        statement="Deals the six-deck shoe to standard.",
    )


def withdraw(certification: Certification, signer) -> Certification:
    return certification_withdraw(
        request=signing_request(),
        certification=certification,
        signer=signer,
        password=PASSWORD,
        statement="Mispaid a split",
    )


def after_expiry(certification: Certification) -> dt.datetime:
    assert certification.expires_at is not None
    return certification.expires_at + dt.timedelta(minutes=1)
