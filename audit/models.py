"""The audit side's records: reviews, retraining flags, certifications and compliance
reports. All but the reports are append-only: a correction is a new row pointing at the old.
(The ledger's entries and head are the ledger app's.)"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from audit.authority import rank_choices
from core.models import AppendOnly


class Review(AppendOnly):
    """A pit boss's review of one graded mistake. A correction is a new review pointing back."""

    grade = models.ForeignKey("trainer.Grade", on_delete=models.PROTECT, related_name="reviews")
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reviews_written"
    )
    comment = models.TextField()
    corrects = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"review of grade {self.grade_id} by {self.reviewer}"


class RetrainingFlag(AppendOnly):
    """A pit boss's call that a trainee needs retraining (or, as a correction, no longer does)."""

    trainee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="retraining_flags"
    )
    flagged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.TextField()
    skills = models.JSONField(default=list, blank=True)
    active = models.BooleanField(default=True, help_text="False on an entry that lifts a flag.")
    corrects = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"retraining {'flag' if self.active else 'lifted'} for {self.trainee}"


class Refresher(AppendOnly):
    """A refresher drill generated on a trainee's weak skills and assigned to them in one
    step, from a retraining flag (or from their mistakes, with no flag). Lifting the flag
    shows the refresher's result as its evidence."""

    trainee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="refreshers"
    )
    flag = models.ForeignKey(
        RetrainingFlag,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="refreshers",
    )
    assignment = models.OneToOneField(
        "trainer.Assignment", on_delete=models.PROTECT, related_name="refresher"
    )
    skills = models.JSONField(default=list)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"refresher for {self.trainee} on {', '.join(self.skills)}"


class Certification(AppendOnly):
    """A signed statement that a trainee is ready to deal a game under a rule profile.

    A signature: the signer re-entered their password; their full name, the time and the
    exact statement and evidence signed are recorded. A withdrawal is a new row that
    points at the one it withdraws.
    """

    trainee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="certifications"
    )
    profile = models.ForeignKey(
        "trainer.RuleProfile", on_delete=models.PROTECT, related_name="certifications"
    )
    attempt = models.ForeignKey(
        "trainer.Attempt", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    signed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="certifications_signed"
    )
    signer_full_name = models.CharField(max_length=300)
    # The role the signer signed in (core.roles.Role's value): a pit boss or an admin.
    signer_role = models.CharField(max_length=32, blank=True)
    # The signer's rank and licence or employee number as they signed (audit.authority);
    # None on a row signed before signatures stated them.
    signer_rank = models.CharField(max_length=32, null=True, blank=True)  # noqa: DJ001
    signer_licence = models.CharField(max_length=40, null=True, blank=True)  # noqa: DJ001
    signed_at = models.DateTimeField()
    # When the certification lapses (SHOESCHOOL_CERT_VALID_MONTHS after signing); a
    # withdrawal has none.
    expires_at = models.DateTimeField(null=True, blank=True)
    statement = models.TextField()
    evidence = models.JSONField(default=dict)
    # Signed while a retraining flag was in force: why the signer signed regardless, and
    # which flags (ids) that answers.
    override_reason = models.TextField(blank=True)
    flags_overridden = models.JSONField(default=list, blank=True)
    # The warnings the signer acknowledged before signing (e.g. answers faster than
    # plausible), as they were worded to them.
    acknowledged = models.JSONField(default=list, blank=True)
    withdrawn = models.BooleanField(default=False)
    corrects = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )

    class Meta:
        ordering = ["-signed_at"]

    def __str__(self) -> str:
        return f"certification of {self.trainee} by {self.signer_full_name}"


class SignerProfile(AppendOnly):
    """A person's signature authority, as an administrator recorded it: their rank and
    licence or employee number. A change is a new row; the newest is in force."""

    person = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="signer_profiles"
    )
    rank = models.CharField(max_length=32, choices=rank_choices())
    licence_number = models.CharField(max_length=40, blank=True)
    set_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    set_at = models.DateTimeField()

    class Meta:
        ordering = ["-set_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.person}: {self.rank} {self.licence_number}"


class PracticalSheet(AppendOnly):
    """An observed practical test: the evaluation sheet an evaluator filled while watching
    the trainee deal a table live, signed like a certification (password re-entered; full
    name, rank and licence number recorded). Locked once signed: a correction is a new
    signed row pointing back at the one it corrects."""

    trainee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="practical_sheets"
    )
    profile = models.ForeignKey(
        "trainer.RuleProfile", on_delete=models.PROTECT, related_name="practical_sheets"
    )
    evaluator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="practical_sheets_signed"
    )
    evaluator_full_name = models.CharField(max_length=300)
    evaluator_rank = models.CharField(max_length=32)
    evaluator_licence = models.CharField(max_length=40)
    signed_at = models.DateTimeField()
    # The sheet as evaluated (trainer.games.observing.SheetTemplate.as_dict) and the marks.
    template = models.JSONField()
    marks = models.JSONField()
    comments = models.TextField(blank=True)
    score = models.DecimalField(max_digits=5, decimal_places=2)
    passed = models.BooleanField()
    shortfalls = models.JSONField(default=list, blank=True)
    corrects = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )

    class Meta:
        ordering = ["-signed_at", "-pk"]

    def __str__(self) -> str:
        return f"practical sheet of {self.trainee} by {self.evaluator_full_name}"


class ReportStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    RUNNING = "running", "Running"
    READY = "ready", "Ready"
    FAILED = "failed", "Failed"


class ComplianceReport(models.Model):
    """A compliance report produced for a period, and the file it was stored as."""

    period_start = models.DateField()
    period_end = models.DateField()
    format = models.CharField(
        max_length=8,
        choices=[("csv", "CSV"), ("pdf", "PDF"), ("flat", "CSV, decisions only")],
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(
        max_length=16, choices=ReportStatus.choices, default=ReportStatus.PENDING
    )
    error = models.TextField(blank=True)
    file = models.FileField(upload_to="reports/", blank=True)
    sha256 = models.CharField(max_length=64, blank=True)
    size_bytes = models.PositiveBigIntegerField(null=True, blank=True)
    ledger_head_hash = models.CharField(max_length=64, blank=True)
    # The entry the head hash belongs to: with it the report is an anchor that verification
    # checks the ledger against (an entry with that hash must still be at that position).
    ledger_entries = models.PositiveBigIntegerField(null=True, blank=True)
    ledger_ok = models.BooleanField(null=True, blank=True)
    # How the ledger was verified for the report: 0 the whole chain, N only the entries after
    # the trusted checkpoint at entry N (ledger.services.verify); empty for older reports.
    ledger_verified_from = models.PositiveBigIntegerField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-requested_at"]

    def __str__(self) -> str:
        return f"{self.format} report {self.period_start} to {self.period_end}"


class Certificate(AppendOnly):
    """A certification's public face (audit.services.certificates): the verification code
    a person types or scans (printed on the certificate PDF with a QR code, and the key of
    the public verify page) and the certification's place on the credentials' status list.
    Issued when the certification is signed; a withdrawal has none (it withdraws the
    original's certificate)."""

    certification = models.OneToOneField(
        Certification, on_delete=models.PROTECT, related_name="certificate"
    )
    # 16 characters of Crockford's base32 (80 random bits), stored without the dashes a
    # person reads them with.
    code = models.CharField(max_length=16, unique=True)
    # Its bit on the Bitstring Status List (a random place, so the list says nothing of the
    # order in which certificates were issued).
    status_index = models.PositiveIntegerField(unique=True)
    issued_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"certificate of certification {self.certification_id}"

    @property
    def shown(self) -> str:
        """The code as a person reads it (audit.services.certificates.code_shown)."""
        return "-".join(self.code[i : i + 4] for i in range(0, len(self.code), 4))
