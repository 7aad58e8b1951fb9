"""The trainer's records: rule profiles, scenarios, drills, assignments, attempts,
decisions, and the grades the grading service gives them.

Records that a grade or a regulator relies on are never edited after the fact: profile
versions once used, decisions once submitted, grades once written. Corrections are new
rows (a new profile version, a new grading run) that leave the old ones for the record.

Over 400 lines on purpose: Django keeps an app's models together, and the migrations and
the admin name them here.
"""

from __future__ import annotations

from decimal import Decimal
from functools import cached_property
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from trainer.games import game_named
from trainer.games.authoring import TableProfile


class RuleProfile(models.Model):
    """A named house rule profile (e.g. ``casino-shoe``); its rules live in its versions."""

    name = models.SlugField(max_length=64, unique=True)
    title = models.CharField(max_length=200, blank=True)
    # The game the table is set for (trainer.games): its parameters are that game's.
    game = models.CharField(max_length=32, default="blackjack")
    created_at = models.DateTimeField(auto_now_add=True)
    # Whether a certification at this table needs a passed practical evaluation sheet
    # (issue #28): None follows the jurisdiction (audit.services.practical); True or
    # False is the house's own setting for the table
    # (trainer.services.house_rules.table_practical_set).
    practical_required = models.BooleanField(null=True, blank=True, default=None)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        # The slug is what versions, scenarios and the ledger's entries name the table by:
        # fixed once the table has rules (its title, what people read, may change).
        if self.pk is not None:
            before = RuleProfile.objects.filter(pk=self.pk).values_list("name", flat=True).first()
            if before is not None and before != self.name and self.versions.exists():
                raise ValidationError(
                    f"the table's short name {before!r} is fixed: its rules are recorded under it"
                )
        super().save(*args, **kwargs)

    def version_in_effect(self, *, at: Any) -> RuleProfileVersion | None:
        """The rules in force at an instant: the version with the latest start at or before
        it, the newest of those (a correction starts when the version it corrects did)."""
        return (
            self.versions.filter(effective_from__lte=at)
            .order_by("-effective_from", "-version")
            .first()
        )

    @property
    def current_version(self) -> RuleProfileVersion | None:
        """The rules in force now; a change scheduled from a later date is not yet."""
        return self.version_in_effect(at=timezone.now())

    @property
    def newest_version(self) -> RuleProfileVersion | None:
        """The last rules recorded, in force or scheduled: what a new change starts from."""
        return self.versions.order_by("-effective_from", "-version").first()


# The note migration 0003 gave the shipped tables' first versions (kept: the ledger has it).
SHIPPED_VERSION_NOTE = "As published in rule-profiles.md."


class RuleProfileVersion(models.Model):
    """One immutable set of a profile's parameters. A correction is a new version."""

    profile = models.ForeignKey(RuleProfile, on_delete=models.PROTECT, related_name="versions")
    version = models.PositiveIntegerField()
    # Every parameter of rule-profiles.md, as the engine's profile_to_dict writes it.
    parameters = models.JSONField()
    source = models.CharField(max_length=200, blank=True)
    assumed = models.JSONField(default=list, blank=True)
    notes = models.TextField(blank=True, help_text="Why this version exists (what it corrects).")
    # From when these are the table's rules: a house's change takes effect from a date; a
    # correction starts when the version it corrects did (RuleProfile.version_in_effect).
    effective_from = models.DateTimeField(default=timezone.now)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["profile__name", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["profile", "version"], name="unique_profile_version")
        ]

    def __str__(self) -> str:
        return f"{self.profile.name} v{self.version}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise ValidationError(
                f"{self} is a recorded rule set and cannot be edited; create a new version"
            )
        super().save(*args, **kwargs)

    @property
    def notes_shown(self) -> str:
        """The note as a person reads it: the shipped versions' note names a file of ours."""
        if self.notes == SHIPPED_VERSION_NOTE:
            return "The rules this table came with."
        return self.notes

    @cached_property
    def engine_profile(self) -> TableProfile:
        """The game's profile for these parameters, under this profile's name."""
        return game_named(self.profile.game).rule_profile(self.parameters, name=self.profile.name)

    @property
    def house_rules(self) -> list[str]:
        """The whole house rule, a line each, in the words of a table card (the game's)."""
        return game_named(self.profile.game).table_card(self.parameters, profile=self.profile.name)

    @property
    def placard(self) -> str:
        """The table placard, in the game's words."""
        return game_named(self.profile.game).placard(self.parameters)


class TrainingClass(models.Model):
    """A cohort of trainees taught by one or more pit bosses (instructors)."""

    name = models.CharField(max_length=120, unique=True)
    instructors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="classes_taught", blank=True
    )
    trainees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="classes_attended", blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "training classes"

    def __str__(self) -> str:
        return self.name


class Scenario(models.Model):
    """A hand-staged round: a validated ``blackjack-scenario/1`` document."""

    slug = models.SlugField(max_length=100, unique=True)
    # The game the document is a round of (trainer.games): its format and its rules.
    game = models.CharField(max_length=32, default="blackjack")
    title = models.CharField(max_length=200)
    skills = models.JSONField(default=list, blank=True)
    difficulty = models.PositiveSmallIntegerField(
        default=2, validators=[MinValueValidator(1), MaxValueValidator(5)]
    )
    profile_version = models.ForeignKey(
        RuleProfileVersion, on_delete=models.PROTECT, related_name="scenarios"
    )
    document = models.JSONField()
    # A fixed scenario keeps its slug's history: the fix is a new row pointing at the old.
    revision = models.PositiveIntegerField(default=1)
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_by"
    )
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return f"{self.slug}: {self.title}"


class DrillKind(models.TextChoices):
    FIXED = "fixed", "Set rounds from the library"
    GENERATED = "generated", "Fresh rounds dealt at every attempt"


class Mode(models.TextChoices):
    PRACTICE = "practice", "Practice"
    EXAM = "exam", "Exam"
    SPEED = "speed", "Speed"
    # A trainee's answers in an instructor's live session (LiveSession): never assigned.
    CLASS_SESSION = "class_session", "Class session"


# The modes a drill is assigned (or started) in; a class session's attempt is made by
# joining the session (teaching.services.live_sessions), never assigned.
ASSIGNED_MODES = (Mode.PRACTICE, Mode.EXAM, Mode.SPEED)
ASSIGNED_MODE_CHOICES = [(mode.value, mode.label) for mode in ASSIGNED_MODES]


class DrillPurpose(models.TextChoices):
    """Practice drills are open to every trainee; exam drills are sealed.

    An exam's rounds reach a trainee only inside a sitting of an assignment, and every
    sitting deals its own rounds, so nothing seen in one sitting (or anywhere else) is
    the next sitting's answer key.
    """

    PRACTICE = "practice", "Practice"
    EXAM = "exam", "Sealed exam"


class Drill(models.Model):
    """A set of rounds to deal: fixed scenarios, or a recipe the generator follows."""

    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    kind = models.CharField(max_length=16, choices=DrillKind.choices, default=DrillKind.FIXED)
    # The game its rounds are dealt in (trainer.games): attempts and grading ask it alone.
    game = models.CharField(max_length=32, default="blackjack")
    purpose = models.CharField(
        max_length=16, choices=DrillPurpose.choices, default=DrillPurpose.PRACTICE
    )
    # The table test this exam is: a certification under this profile may rest on it.
    certifies = models.ForeignKey(
        RuleProfile, null=True, blank=True, on_delete=models.PROTECT, related_name="exams"
    )
    scenarios = models.ManyToManyField(Scenario, through="DrillScenario", blank=True)
    # The generator's recipe (kind = generated).
    profile_version = models.ForeignKey(
        RuleProfileVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="drills"
    )
    skills = models.JSONField(default=list, blank=True)
    # The least number of rounds of each skill a sitting deals: {"surrender": 3, ...}.
    skill_minimums = models.JSONField(default=dict, blank=True)
    # Rounds per attempt. A fixed exam draws this many per sitting from a pool five times
    # larger (trainer.selectors.pools).
    count = models.PositiveIntegerField(default=10, validators=[MinValueValidator(1)])
    min_stake = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    max_stake = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    max_boxes = models.PositiveSmallIntegerField(
        default=3, validators=[MinValueValidator(1), MaxValueValidator(7)]
    )
    # Time allowed to answer each question, from the moment it is shown; enforced.
    time_limit_seconds = models.PositiveIntegerField(default=60)
    # The whole attempt's time box, for speed drills and exam sittings.
    time_box_seconds = models.PositiveIntegerField(default=300)
    pass_mark = models.DecimalField(
        max_digits=5,
        decimal_places=2,
        default=Decimal("95.00"),
        validators=[MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(100))],
        help_text="Percent of questions right needed to pass.",
    )
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # Who may retire it besides an administrator: its author; None for a table test (the
    # department's, so administrators only) and for a drill whose author is not recorded.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # A drill made for one trainee (a refresher, the demo's history): only they practise it
    # without an assignment, and only their "Practise any drill" lists it. None: anyone's.
    made_for = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["title"]

    def __str__(self) -> str:
        return self.title


class DrillScenario(models.Model):
    drill = models.ForeignKey(Drill, on_delete=models.CASCADE, related_name="drill_scenarios")
    scenario = models.ForeignKey(Scenario, on_delete=models.PROTECT, related_name="+")
    position = models.PositiveIntegerField()

    class Meta:
        ordering = ["drill", "position"]
        constraints = [
            models.UniqueConstraint(fields=["drill", "position"], name="unique_drill_position")
        ]

    def __str__(self) -> str:
        return f"{self.drill} #{self.position}"


class Assignment(models.Model):
    """A drill given to one trainee or to a whole class, in a mode, with a due date."""

    drill = models.ForeignKey(Drill, on_delete=models.PROTECT, related_name="assignments")
    mode = models.CharField(max_length=16, choices=Mode.choices, default=Mode.PRACTICE)
    trainee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="assignments",
    )
    training_class = models.ForeignKey(
        TrainingClass, null=True, blank=True, on_delete=models.PROTECT, related_name="assignments"
    )
    due_at = models.DateTimeField(null=True, blank=True)
    max_sittings = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="At most this many attempts; empty: no limit."
    )
    cooldown_hours = models.PositiveIntegerField(
        default=0, help_text="Hours to wait after one attempt ends before the next may start."
    )
    assigned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # A cancelled assignment stays on record (its sittings point at it) but no trainee sees it.
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["due_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(trainee__isnull=False, training_class__isnull=True)
                | Q(trainee__isnull=True, training_class__isnull=False),
                name="assignment_to_trainee_xor_class",
            )
        ]

    def __str__(self) -> str:
        who = self.trainee or self.training_class
        return f"{self.drill} ({self.mode}) → {who}"


class AttemptStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", "In progress"
    SUBMITTED = "submitted", "Submitted"
    ABANDONED = "abandoned", "Abandoned"


class GradingStatus(models.TextChoices):
    NOT_SUBMITTED = "not_submitted", "Not submitted"
    PENDING = "pending", "Pending"
    GRADING = "grading", "Grading"
    GRADED = "graded", "Graded"
    FAILED = "failed", "Failed"


class Attempt(models.Model):
    """One trainee's run of a drill in one mode."""

    trainee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="attempts"
    )
    drill = models.ForeignKey(Drill, on_delete=models.PROTECT, related_name="attempts")
    assignment = models.ForeignKey(
        Assignment, null=True, blank=True, on_delete=models.PROTECT, related_name="attempts"
    )
    mode = models.CharField(max_length=16, choices=Mode.choices)
    # Which sitting of its assignment this is (1, 2, ...); none without an assignment.
    sitting = models.PositiveIntegerField(null=True, blank=True)
    # Recorded for the audit: the same drill and seed deal the same rounds again.
    seed = models.BigIntegerField(null=True, blank=True)
    status = models.CharField(
        max_length=16, choices=AttemptStatus.choices, default=AttemptStatus.IN_PROGRESS
    )
    grading_status = models.CharField(
        max_length=16, choices=GradingStatus.choices, default=GradingStatus.NOT_SUBMITTED
    )
    grading_error = models.TextField(blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    # Speed and exam: answers after this are refused; the attempt is submitted as it stands.
    deadline = models.DateTimeField(null=True, blank=True)
    submitted_at = models.DateTimeField(null=True, blank=True)
    grading_queued_at = models.DateTimeField(null=True, blank=True)
    # The current (newest) grading run's result, copied here for lists and dashboards.
    score = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    passed = models.BooleanField(null=True, blank=True)
    graded_at = models.DateTimeField(null=True, blank=True)
    # A class session's attempt: the live session whose questions it answers (mode
    # class_session); its questions are asked when the instructor opens them.
    live_session = models.ForeignKey(
        "LiveSession", null=True, blank=True, on_delete=models.PROTECT, related_name="attempts"
    )

    class Meta:
        ordering = ["-started_at"]
        indexes = [
            models.Index(fields=["trainee", "-started_at"]),
            models.Index(fields=["grading_status", "grading_queued_at"]),
        ]
        constraints = [
            # Two concurrent starts make one attempt: the second insert fails here.
            models.UniqueConstraint(
                "trainee",
                "drill",
                "mode",
                Coalesce("assignment", Value(0)),
                condition=Q(status="in_progress"),
                name="one_open_attempt_per_drill",
            ),
            models.UniqueConstraint(
                fields=["assignment", "trainee", "sitting"], name="unique_sitting"
            ),
            # A trainee is in one live session at a time, and joins each once.
            models.UniqueConstraint(
                fields=["trainee"],
                condition=Q(mode="class_session", status="in_progress"),
                name="one_live_session_at_a_time",
            ),
            models.UniqueConstraint(
                fields=["live_session", "trainee"], name="one_attempt_per_live_session"
            ),
        ]

    def __str__(self) -> str:
        return f"attempt {self.pk}: {self.trainee} on {self.drill} ({self.mode})"


class AttemptItem(models.Model):
    """One round of an attempt: exactly the scenario document that was dealt."""

    attempt = models.ForeignKey(Attempt, on_delete=models.PROTECT, related_name="items")
    position = models.PositiveIntegerField()
    scenario = models.ForeignKey(
        Scenario, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    profile_version = models.ForeignKey(
        RuleProfileVersion, on_delete=models.PROTECT, related_name="+"
    )
    document = models.JSONField()
    # The engine's answer key for the document, computed once when the round is dealt.
    # It never leaves the server before the round's answers are in.
    answer_key = models.JSONField(default=list)
    # When each question (by the answer key's n) was first shown, in server time.
    questions_shown = models.JSONField(default=dict)
    shown_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["attempt", "position"]
        constraints = [
            models.UniqueConstraint(fields=["attempt", "position"], name="unique_attempt_position")
        ]

    def __str__(self) -> str:
        return f"attempt {self.attempt_id} round {self.position}"


class Decision(models.Model):
    """One answer to one answer-key question. Never edited once written."""

    item = models.ForeignKey(AttemptItem, on_delete=models.PROTECT, related_name="decisions")
    question = models.PositiveIntegerField(help_text="The answer key's n.")
    kind = models.CharField(max_length=32)
    answer = models.JSONField()
    # What the table showed when the question was asked (the answer key's view).
    shown = models.JSONField(default=dict)
    shown_at = models.DateTimeField()
    answered_at = models.DateTimeField()
    response_ms = models.PositiveIntegerField()
    # The limit the question was asked under, and whether the answer came after it.
    time_limit_ms = models.PositiveIntegerField(null=True, blank=True)
    late = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["item", "question"]
        constraints = [
            # A repeated submission of the same answer cannot make a second decision.
            models.UniqueConstraint(fields=["item", "question"], name="one_decision_per_question")
        ]

    def __str__(self) -> str:
        return f"decision on round {self.item_id} question {self.question}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise ValidationError("a decision is a record and cannot be edited")
        super().save(*args, **kwargs)


class RunStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    GRADING = "grading", "Grading"
    GRADED = "graded", "Graded"
    FAILED = "failed", "Failed"


class RunTrigger(models.TextChoices):
    SUBMIT = "submit", "Submitted"
    REGRADE = "regrade", "Regrade"


class GradingRun(models.Model):
    """One grading of one attempt. A regrade is a new run; the newest graded one is current."""

    attempt = models.ForeignKey(Attempt, on_delete=models.PROTECT, related_name="grading_runs")
    number = models.PositiveIntegerField()
    trigger = models.CharField(max_length=16, choices=RunTrigger.choices)
    reason = models.TextField(blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    status = models.CharField(max_length=16, choices=RunStatus.choices, default=RunStatus.PENDING)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    # The lease of the worker grading the run (trainer.services.grading.sweep): set when it
    # starts, cleared when the run finishes or is queued again.
    claimed_until = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    questions = models.PositiveIntegerField(default=0)
    correct = models.PositiveIntegerField(default=0)
    score = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    passed = models.BooleanField(null=True, blank=True)
    overpaid = models.DecimalField(max_digits=14, decimal_places=2, default=Decimal("0.00"))
    underpaid = models.DecimalField(max_digits=14, decimal_places=2, default=Decimal("0.00"))
    # What each round was graded against, by item id: profile version, scenario revision,
    # the document's hash and whether the key was the stored one or recomputed.
    basis = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["attempt", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["attempt", "number"], name="unique_run_number")
        ]
        indexes = [models.Index(fields=["status", "created_at"])]

    def __str__(self) -> str:
        return f"grading run {self.number} of attempt {self.attempt_id}"


class ErrorCategory(models.TextChoices):
    """The shell's own categories, the same in every game (trainer.games.marking); a
    game's categories of mistake are its own (its ``categories``), stored as their codes.
    Neither is a mistake to review: a late answer is wrong for its timing, whatever it said;
    an unanswered question counts against the score but cost nothing (a game's
    ``unanswered``)."""

    LATE = "late", "Answered after the time limit"
    UNANSWERED = "unanswered", "Not answered"


class Grade(models.Model):
    """The grade one run gave one question of one round (answered or missed)."""

    run = models.ForeignKey(GradingRun, on_delete=models.PROTECT, related_name="grades")
    item = models.ForeignKey(AttemptItem, on_delete=models.PROTECT, related_name="grades")
    question = models.PositiveIntegerField()
    decision = models.ForeignKey(
        Decision, null=True, blank=True, on_delete=models.PROTECT, related_name="grades"
    )
    kind = models.CharField(max_length=32)
    correct = models.BooleanField()
    expected = models.JSONField()
    given = models.JSONField(null=True)
    # The verdict's cost when its game counts money (trainer.games.marking.MONEY; 0.00 in a
    # game that counts points). Signed, from the house's view: positive when the player was
    # overpaid.
    money_diff = models.DecimalField(max_digits=14, decimal_places=2, default=Decimal("0.00"))
    # The verdict's cost when its game counts points (trainer.games.marking.POINTS), signed
    # as money_diff; NULL in a game that counts money.
    points_diff = models.DecimalField(max_digits=14, decimal_places=2, null=True, blank=True)
    # Why the answer was wrong: a code its game declares (``categories``) or the shell's
    # (ErrorCategory); labelled through the game, so a game adds one without a migration.
    category = models.CharField(max_length=32, blank=True)
    rule = models.TextField(blank=True)
    response_ms = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["run", "item", "question"]
        constraints = [
            # Running the same grading task twice cannot grade a question twice.
            models.UniqueConstraint(
                fields=["run", "item", "question"], name="one_grade_per_question"
            )
        ]
        indexes = [models.Index(fields=["category"])]

    def __str__(self) -> str:
        return f"grade of round {self.item_id} question {self.question}"


class GradingRunSummary(models.Model):
    """A graded run's figures, written with its grades, so dashboards sum runs, not grades.

    The columns are the run's totals; ``facets`` holds the same figures for the grades of
    one profile (``p:<name>``), of the questions shown that exercise one skill
    (``s:<skill>``, a game's question_skills) or both (``p:<name>|s:<skill>``), so a filtered
    dashboard is a sum over runs too. Response
    times are kept as a histogram of ``HISTOGRAM_MS``-wide buckets (sparse, by bucket
    index), which gives the exact per-second speed chart and an approximate p90.
    """

    HISTOGRAM_MS = 250
    # Answers slower than this land in the last bucket.
    HISTOGRAM_LAST = 240

    run = models.OneToOneField(
        GradingRun, primary_key=True, on_delete=models.PROTECT, related_name="summary"
    )
    attempt = models.ForeignKey(Attempt, on_delete=models.PROTECT, related_name="+")
    number = models.PositiveIntegerField()
    trainee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    drill = models.ForeignKey(Drill, on_delete=models.PROTECT, related_name="+")
    mode = models.CharField(max_length=16, choices=Mode.choices)
    submitted_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    profiles = models.JSONField(default=list)
    questions = models.PositiveIntegerField(default=0)
    correct = models.PositiveIntegerField(default=0)
    # Answered questions: those with a response time (a missed question has none).
    answered = models.PositiveIntegerField(default=0)
    response_ms_sum = models.BigIntegerField(default=0)
    overpaid = models.DecimalField(max_digits=14, decimal_places=2, default=Decimal("0.00"))
    underpaid = models.DecimalField(max_digits=14, decimal_places=2, default=Decimal("0.00"))
    # Points lost to mistakes in a game counting points (its grades' points_diff, either
    # way), beside the money; NULL when no grade of the run counted points.
    points = models.DecimalField(max_digits=14, decimal_places=2, null=True, blank=True)
    histogram = models.JSONField(default=dict)
    categories = models.JSONField(default=dict)
    skills = models.JSONField(default=dict)
    facets = models.JSONField(default=dict)
    # The chip questions' figures by kind (trainer.tallies.CHIP_FIELDS); empty without any.
    chips = models.JSONField(default=dict)
    # Questions never shown to the trainee (rounds not reached): in `questions`, in no
    # skill's facet (a game's question_skills).
    not_reached = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["trainee", "submitted_at"]),
            models.Index(fields=["attempt", "number"]),
        ]

    def __str__(self) -> str:
        return f"summary of {self.run}"


class LiveSessionState(models.TextChoices):
    RUNNING = "running", "Running"
    PAUSED = "paused", "Paused"
    ENDED = "ended", "Ended"


class LiveSession(models.Model):
    """An instructor leading a class through a drill's rounds at once (teaching's
    services); each trainee's answers are an Attempt in the class session mode. It stays in
    trainer's models because those attempts point at it, as at an assignment."""

    # Shown on the projector: short, unguessable, read without regard to case.
    code = models.CharField(max_length=12, unique=True)
    training_class = models.ForeignKey(
        TrainingClass, on_delete=models.PROTECT, related_name="live_sessions"
    )
    drill = models.ForeignKey(Drill, on_delete=models.PROTECT, related_name="live_sessions")
    instructor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    # The rounds dealt once for the whole room: [{document, profile_version, scenario,
    # answer_key}]; every trainee's attempt is dealt the same.
    rounds = models.JSONField(default=list)
    seed = models.BigIntegerField(null=True, blank=True)
    state = models.CharField(
        max_length=16, choices=LiveSessionState.choices, default=LiveSessionState.RUNNING
    )
    # The number of the question on the table (LiveQuestion.number).
    current = models.PositiveIntegerField(default=1)
    # Raised by every change: the pages poll it and redraw when it moves.
    version = models.PositiveIntegerField(default=1)
    show_names = models.BooleanField(default=False)
    opened_at = models.DateTimeField(auto_now_add=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-opened_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["training_class"],
                condition=~Q(state="ended"),
                name="one_live_session_per_class",
            )
        ]

    def __str__(self) -> str:
        return f"live session {self.code} of {self.training_class}"


class LiveQuestionState(models.TextChoices):
    WAITING = "waiting", "Waiting to open"
    OPEN = "open", "Open for answers"
    CLOSED = "closed", "Closed"
    REVEALED = "revealed", "Answer shown"


class LiveQuestion(models.Model):
    """One question of a live session, with the moment of each change of its state."""

    session = models.ForeignKey(LiveSession, on_delete=models.PROTECT, related_name="questions")
    number = models.PositiveIntegerField()
    # The round (its position, from 1) and the answer key's n.
    position = models.PositiveIntegerField()
    n = models.PositiveIntegerField()
    kind = models.CharField(max_length=32)
    opened_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    revealed_at = models.DateTimeField(null=True, blank=True)
    # The room's answers counted at the close: {"answered", "right", "mistakes": {category:
    # count}, "answers": [[words, count, right]]}; never a trainee's name.
    tally = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="unique_live_question")
        ]

    def __str__(self) -> str:
        return f"question {self.number} of {self.session}"

    @property
    def state(self) -> str:
        if self.revealed_at is not None:
            return LiveQuestionState.REVEALED
        if self.closed_at is not None:
            return LiveQuestionState.CLOSED
        if self.opened_at is not None:
            return LiveQuestionState.OPEN
        return LiveQuestionState.WAITING

    @property
    def state_words(self) -> str:
        return str(LiveQuestionState(self.state).label)
