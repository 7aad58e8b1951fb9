"""The audit side's rows the ledger vouches for (ledger.services.vouch): certifications
and their withdrawals, their certificates, retraining flags and their lifts, refreshers,
reviews and the signers' authority (rank and licence number) and practical sheets.
AuditConfig.ready registers them.

Each service that writes one puts its digest in the payload of the ledger entry it appends
in the same transaction. They are small tables that a sign-off relies on: every
verification checks them whole, the incremental one too.
"""

from __future__ import annotations

from audit.models import (
    Certificate,
    Certification,
    PracticalSheet,
    Refresher,
    RetrainingFlag,
    Review,
    SignerProfile,
)
from ledger.events import Subject
from ledger.services.vouch import Vouched

CERTIFICATIONS = Vouched(
    model=Certification,
    noun="certification",
    plural="certifications",
    fields=(
        "trainee_id",
        "profile_id",
        "attempt_id",
        "signed_by_id",
        "signer_full_name",
        "signer_role",
        "signed_at",
        "expires_at",
        "statement",
        "evidence",
        "override_reason",
        "flags_overridden",
        "acknowledged",
        "withdrawn",
        "corrects_id",
    ),
    subject_type=Subject.CERTIFICATION,
    small=True,
    # What a signature states since signature authority (audit.authority).
    later=("signer_rank", "signer_licence"),
)
SIGNER_PROFILES = Vouched(
    model=SignerProfile,
    noun="signature authority",
    plural="signature authorities",
    fields=("person_id", "rank", "licence_number", "set_by_id", "set_at"),
    subject_type=Subject.USER,
    subject_field="person_id",
    small=True,
)
# A certificate's code and status place: the public verify page and the credentials rest
# on them (audit.services.certificates).
CERTIFICATES = Vouched(
    model=Certificate,
    noun="certificate",
    plural="certificates",
    fields=("certification_id", "code", "status_index", "issued_at"),
    subject_type=Subject.CERTIFICATION,
    subject_field="certification_id",
    small=True,
)
FLAGS = Vouched(
    model=RetrainingFlag,
    noun="retraining flag",
    plural="retraining flags",
    fields=(
        "trainee_id",
        "flagged_by_id",
        "reason",
        "skills",
        "active",
        "corrects_id",
        "created_at",
    ),
    subject_type=Subject.TRAINEE,
    subject_field="trainee_id",
    small=True,
)
REFRESHERS = Vouched(
    model=Refresher,
    noun="refresher",
    plural="refreshers",
    fields=("trainee_id", "flag_id", "assignment_id", "skills", "created_by_id", "created_at"),
    subject_type=Subject.TRAINEE,
    subject_field="trainee_id",
    small=True,
)
REVIEWS = Vouched(
    model=Review,
    noun="review",
    plural="reviews",
    fields=("grade_id", "reviewer_id", "comment", "corrects_id", "created_at"),
    subject_type=Subject.GRADE,
    subject_field="grade_id",
    small=True,
)
PRACTICAL_SHEETS = Vouched(
    model=PracticalSheet,
    noun="practical evaluation sheet",
    plural="practical evaluation sheets",
    fields=(
        "trainee_id",
        "profile_id",
        "evaluator_id",
        "evaluator_full_name",
        "evaluator_rank",
        "evaluator_licence",
        "signed_at",
        "template",
        "marks",
        "comments",
        "score",
        "passed",
        "shortfalls",
        "corrects_id",
    ),
    subject_type=Subject.PRACTICAL_SHEET,
    small=True,
)
# Migration 0008 backfilled the first four tables' rows (it names them); the tables made
# after it are vouched for from their first row, by the services that write them.
SPECS = (
    CERTIFICATIONS,
    CERTIFICATES,
    FLAGS,
    REFRESHERS,
    REVIEWS,
    SIGNER_PROFILES,
    PRACTICAL_SHEETS,
)
