"""Give the demo trainee a graded history, so the demo pit boss has mistakes to review and
table tests to look at.

The history: practice drills and an exam with mistakes in them (and a practice left after
its first round, its other rounds not reached); a certification at
the double-deck table signed more than a year ago, so expired; a passed sitting of
the six-deck shoe's table test that nobody has signed, ready for the sign-off; and
Scarne's Casino's: a practice with mistakes in points and a table-test sitting short of
its mark.

Development only, and idempotent: each part is made once (a drill the trainee already has
a graded sitting of is left alone). Every answer goes through the trainee's real services
(start, show, answer, submit), is graded synchronously by the grading service and the
certification is signed through the sign-off service with the demo pit boss's password,
so the ledger, the grades and the dashboard are exactly what real use would have produced.
The expired certification and the sitting it rests on are made on a clock turned back
(EXPIRED_AGO): every record of them, their ledger entries included, carries that date;
as are the certification at the same table later withdrawn and the one valid now
(WITHDRAWN_AGO, WITHDRAWAL_AGO, RECERTIFIED_AGO).
So is one practice drill sat last month (LAST_MONTH), so that a compliance officer's
"last month" report has decisions in it.

Over 400 lines on purpose: one command tells the demo's history in order, each part
resting on the one before, with the few helpers only it uses.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any
from unittest import mock

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from audit.authority import Rank
from audit.models import Refresher
from audit.selectors.authority import signer_profile_of
from audit.selectors.queue import waiting_reviews
from audit.services.authority import signer_profile_set
from audit.services.practical import practical_sheet_sign, sheet_template
from audit.services.remediation import refresher_assign
from audit.services.reviews import certification_sign, certification_withdraw
from core.errors import ProductError
from teaching.management.commands.setup_demo import DEMO_PASSWORD
from teaching.services.assignments import assignment_create
from trainer.games import game_named
from trainer.models import (
    Assignment,
    Attempt,
    AttemptItem,
    Drill,
    DrillKind,
    DrillPurpose,
    GradingStatus,
    Mode,
    RuleProfileVersion,
    TrainingClass,
)
from trainer.selectors.blueprints import blueprint_shortfalls
from trainer.selectors.runs import current_run_of
from trainer.selectors.visibility import trainees_actable_by
from trainer.services.attempts import (
    attempt_question_show,
    attempt_start,
    attempt_submit,
    decision_record,
)
from trainer.services.drills import drill_create, table_test_create
from trainer.services.grading.execute import grading_run_execute

TRAINEE, PIT_BOSS = "trainee", "pitboss"
ADMINISTRATOR = "admin"
# The demo's signers, as the administrator records them (audit.services.authority): the
# demo class's pit boss is a pit manager, so their signature meets the table test's rank;
# the other pit bosses are pit bosses (below it). (username, rank, licence number)
DEMO_SIGNERS = (
    (PIT_BOSS, Rank.PIT_MANAGER, "PM-10417"),
    ("pitboss2", Rank.PIT_BOSS, "PB-20388"),
    ("newhire", Rank.PIT_BOSS, ""),
)
CLASS_NAME = "Demo class"
# (title, mode, rounds, chance of a right answer, skills)
HISTORY = [
    ("Demo history: naturals", Mode.PRACTICE, 8, 0.80, ["natural-3to2", "rounding"]),
    ("Demo history: the dealer's hand", Mode.PRACTICE, 8, 0.85, ["dealer-bust", "soft-17"]),
    ("Demo history: mixed exam", Mode.EXAM, 12, 0.85, ["push", "player-bust", "natural-3to2"]),
    ("Demo history: chip work", Mode.PRACTICE, 9, 0.6, ["pay-in-chips", "colour-up", "change"]),
]
# A practice the trainee left after its first round (title, rounds, skills): its results
# count the rounds not reached apart and in no skill (docs/grading.md, Skill figures).
LEFT_PART_WAY: tuple[str, int, list[str]] | None = (
    "Demo history: doubles, left after one round",
    6,
    ["double", "split"],
)
# The table whose certification has expired, and the one with a sitting ready to sign.
EXPIRED_TABLE = "casino-double-deck"
READY_TABLE = "casino-shoe"
# How long ago the expired certification was signed: more than the 12 months it lasts.
EXPIRED_AGO = timedelta(days=400)
# At the same table since: a certification signed and later withdrawn, then one valid now
# (the verify page says withdrawn and valid); how long ago each was signed.
WITHDRAWN_AGO = timedelta(days=90)
WITHDRAWAL_AGO = timedelta(days=60)
RECERTIFIED_AGO = timedelta(days=20)
# A practice drill sat in the middle of last month (the house's calendar), with its own
# random draw so that the rest of the history stays as it was.
LAST_MONTH = ("Demo history: last month's naturals", Mode.PRACTICE, 4, 0.6, ["natural-3to2"])
# Scarne's Casino, the second game: a practice of its rulings sat with mistakes (a score's
# line miscounted, the right call for the wrong reason...), and a sitting of its table test
# short of the pass mark, for the review queue, the pit's dashboard, the trainee's results,
# My record and the compliance report. Each with its own random draw (CASINO_SEEDS): the
# rest of the history deals as it always has. (title, rounds, chance right, skills)
CASINO_TABLE = "scarne-casino"
CASINO_PRACTICE = (
    "Demo history: Casino rulings",
    6,
    0.5,
    ["capture-sum", "single-build", "raise-build", "trailing", "scoring", "penalties"],
)
CASINO_TABLE_TEST_RIGHT = 0.9
CASINO_SEEDS = (2028, 2029)


class Command(BaseCommand):
    help = "Give the demo trainee graded attempts with some mistakes (development only)."

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.ENVIRONMENT != "development":
            raise CommandError(
                f"demo history is made only in development, not in {settings.ENVIRONMENT}"
            )
        users = get_user_model().objects
        trainee = users.filter(username=TRAINEE).first()
        boss = users.filter(username=PIT_BOSS).first()
        if trainee is None or boss is None:
            raise CommandError("run `manage.py setup_demo` first: the demo accounts are missing")
        version = RuleProfileVersion.objects.filter(profile__name="casino-shoe").latest("version")
        with transaction.atomic():
            training_class = (
                TrainingClass.objects.filter(instructors=boss, trainees=trainee).first()
                or TrainingClass.objects.get_or_create(name=CLASS_NAME)[0]
            )
            training_class.instructors.add(boss)
            training_class.trainees.add(trainee)
        self._signers()
        rng = random.Random(2026)  # noqa: S311 - the same demo every time, not a secret
        made = False
        for title, mode, rounds, right, skills in HISTORY:
            drill, _ = Drill.objects.get_or_create(
                title=title,
                defaults={
                    "kind": DrillKind.GENERATED,
                    "purpose": DrillPurpose.EXAM if mode == Mode.EXAM else DrillPurpose.PRACTICE,
                    "profile_version": version,
                    "skills": skills,
                    "count": rounds,
                    "max_boxes": 2,
                    # The demo trainee's history, not a drill for every trainee to practise.
                    "made_for": trainee,
                },
            )
            if drill.made_for_id is None:  # made by a run before drills knew their trainee
                Drill.objects.filter(pk=drill.pk).update(made_for=trainee)
            if self._sat(trainee, drill):
                continue
            attempt = self._sit(trainee, boss, drill, mode, rng, right)
            self.stdout.write(f"  {title}: {self._score(attempt)}")
            made = True
        made = self._expired_certification(trainee, boss, rng) or made
        made = self._ready_sitting(trainee, boss, rng) or made
        made = self._left_part_way(trainee, version) or made
        made = self._refresher(trainee, boss) or made
        made = self._last_month(trainee, boss, version) or made
        made = self._casino(trainee, boss) or made
        if not made:
            self.stdout.write("The demo trainee already has a graded history: nothing to do.")
            return
        self.stdout.write(
            f"The demo trainee has a graded history; log in as {PIT_BOSS} to review it."
        )
        waiting = waiting_reviews(trainees=trainees_actable_by(user=boss)).count()
        self.stdout.write(
            f"  {waiting} mistakes wait in the review queue (Pit → Open the review queue); "
            "the six-deck shoe's sitting waits on the trainee's Sign off page, once a pit "
            "manager signs the trainee's practical test (the Practical test section)."
        )

    def _signers(self) -> None:
        """The demo's ranks and licence numbers, recorded by the demo administrator (once:
        a signer with an authority on file keeps it)."""
        users = get_user_model().objects
        admin = users.filter(username=ADMINISTRATOR).first()
        if admin is None:
            return
        for username, rank, licence in DEMO_SIGNERS:
            person = users.filter(username=username).first()
            if person is None or signer_profile_of(person_id=person.pk) is not None:
                continue
            signer_profile_set(actor=admin, person=person, rank=rank, licence_number=licence)
            self.stdout.write(f"  {username}: {rank.label.lower()} {licence or '(no licence)'}")

    def _practical(self, trainee: Any, boss: Any, table: Any) -> None:
        """The practical test the certification rests on: the demo pit boss watched the
        trainee deal the table and signed a passed evaluation sheet."""
        template = sheet_template(table)
        practical_sheet_sign(
            request=_signing_request(),
            trainee=trainee,
            profile=table,
            evaluator=boss,
            password=DEMO_PASSWORD,
            marks={
                "procedures": dict.fromkeys((p.code for p in template.procedures), True),
                "timed": {t.code: str(t.target_seconds * 0.8) for t in template.timed},
                "rubric": {r.code: 8 for r in template.rubric},
            },
            comments="Dealt a full shoe cleanly; friendly with the players.",
        )

    def _last_month(self, trainee: Any, boss: Any, version: RuleProfileVersion) -> bool:
        title, mode, rounds, right, skills = LAST_MONTH
        drill, _ = Drill.objects.get_or_create(
            title=title,
            defaults={
                "kind": DrillKind.GENERATED,
                "profile_version": version,
                "skills": skills,
                "count": rounds,
                "max_boxes": 2,
                # The trainee's own history, not a drill the department offers.
                "owner": boss,
            },
        )
        if self._sat(trainee, drill):
            return False
        today = timezone.localdate()
        with _clock_turned_back(timedelta(days=today.day + 14)):
            attempt = self._sit(trainee, boss, drill, mode, random.Random(2027), right)  # noqa: S311 - a demo
        self.stdout.write(f"  {title}: {self._score(attempt)}, sat last month")
        return True

    def _casino(self, trainee: Any, boss: Any) -> bool:
        """Casino's practice, sat with mistakes, and a failed sitting of its table test
        (each once: a second run finds them)."""
        version = (
            RuleProfileVersion.objects.filter(profile__name=CASINO_TABLE)
            .order_by("-version")
            .first()
        )
        if version is None:
            self.stdout.write(f"  no Casino history: the table {CASINO_TABLE} is missing")
            return False
        made = False
        title, rounds, right, skills = CASINO_PRACTICE
        practice = Drill.objects.filter(title=title, is_active=True).first() or drill_create(
            title=title,
            kind=DrillKind.GENERATED,
            user=boss,
            profile_version=version,
            skills=skills,
            count=rounds,
            max_boxes=1,
            # The demo trainee's history, not a drill for every trainee to practise.
            made_for=trainee,
        )
        practice_seed, test_seed = CASINO_SEEDS
        if not self._sat(trainee, practice):
            rng = random.Random(practice_seed)  # noqa: S311 - the same demo every time
            attempt = self._sit(trainee, boss, practice, Mode.PRACTICE, rng, right)
            self.stdout.write(f"  {title}: {self._score(attempt)}")
            made = True
        table_test = self._table_test(CASINO_TABLE, boss)
        if not self._sat(trainee, table_test):
            rng = random.Random(test_seed)  # noqa: S311 - the same demo every time
            attempt = self._sit(trainee, boss, table_test, Mode.EXAM, rng, CASINO_TABLE_TEST_RIGHT)
            self.stdout.write(f"  {table_test.title}: {self._score(attempt)}, short of its mark")
            made = True
        return made

    def _refresher(self, trainee: Any, boss: Any) -> bool:
        """A refresher on the trainee's weakest skills, so a newcomer sees remediation on
        the pit page and in My record (once: a second run finds it)."""
        if Refresher.objects.filter(trainee=trainee).exists():
            return False
        try:
            refresher = refresher_assign(trainee=trainee, user=boss, due_in_days=7)
        except ProductError as error:
            self.stdout.write(f"  no refresher: {error.message}")
            return False
        self.stdout.write(f"  {refresher.assignment.drill.title}: assigned, due in 7 days")
        return True

    def _left_part_way(self, trainee: Any, version: RuleProfileVersion) -> bool:
        """A practice answered to the end of its first round and submitted: the rounds
        not reached count against its score, for no skill (once: a second run finds it)."""
        if LEFT_PART_WAY is None:
            return False
        title, rounds, skills = LEFT_PART_WAY
        drill, _ = Drill.objects.get_or_create(
            title=title,
            defaults={
                "kind": DrillKind.GENERATED,
                "purpose": DrillPurpose.PRACTICE,
                "profile_version": version,
                "skills": skills,
                "count": rounds,
                "max_boxes": 2,
            },
        )
        if self._sat(trainee, drill):
            return False
        # Its own generator: the rest of the history deals as it always has.
        rng = random.Random(2024)  # noqa: S311 - the same demo every time, not a secret
        attempt = attempt_start(
            trainee=trainee, drill=drill, mode=Mode.PRACTICE, seed=rng.randrange(2**31)
        )
        self._play(attempt, trainee, rng, 0.9, rounds=1)
        attempt = attempt_submit(attempt=attempt, user=trainee)
        run = attempt.grading_runs.order_by("-number").first()
        if run is not None:
            grading_run_execute(run_id=run.pk)
        attempt.refresh_from_db()
        self.stdout.write(f"  {title}: {self._score(attempt)}")
        return True

    def _sat(self, trainee: Any, drill: Drill) -> bool:
        return Attempt.objects.filter(
            trainee=trainee, drill=drill, grading_status=GradingStatus.GRADED
        ).exists()

    def _sit(
        self, trainee: Any, boss: Any, drill: Drill, mode: str, rng: random.Random, right: float
    ) -> Attempt:
        """One attempt of the drill, answered (right with chance ``right``) and graded."""
        assignment = None
        if mode != Mode.PRACTICE:
            assignment = Assignment.objects.filter(
                drill=drill, mode=mode, trainee=trainee
            ).first() or assignment_create(
                drill=drill, mode=mode, trainee=trainee, assigned_by=boss
            )
        attempt = attempt_start(
            trainee=trainee,
            drill=drill,
            mode=mode,
            assignment=assignment,
            seed=rng.randrange(2**31),
        )
        self._play(attempt, trainee, rng, right)
        attempt = attempt_submit(attempt=attempt, user=trainee)
        run = attempt.grading_runs.order_by("-number").first()
        if run is not None:
            grading_run_execute(run_id=run.pk)
        attempt.refresh_from_db()
        return attempt

    def _score(self, attempt: Attempt) -> str:
        current = current_run_of(attempt=attempt)
        score = current.score if current else None
        return f"{attempt.get_mode_display().lower()} #{attempt.pk}, score {score}%"

    def _table_test(self, table: str, boss: Any) -> Drill:
        """The table's table test: the one setup_demo made, or a new one."""
        found = (
            Drill.objects.filter(certifies__name=table, purpose=DrillPurpose.EXAM, is_active=True)
            .select_related("certifies", "profile_version__profile")
            .order_by("pk")
        )
        for drill in found:
            if not blueprint_shortfalls(drill=drill):
                return drill
        version = RuleProfileVersion.objects.filter(profile__name=table).latest("version")
        return table_test_create(profile_version=version, user=boss)

    def _expired_certification(self, trainee: Any, boss: Any, rng: random.Random) -> bool:
        drill = self._table_test(EXPIRED_TABLE, boss)
        if self._sat(trainee, drill):
            return False
        if not boss.check_password(DEMO_PASSWORD):
            self.stdout.write(
                f"  {drill.title}: not sat, since {PIT_BOSS}'s password is no longer the demo "
                "password the certification would be signed with"
            )
            return False
        table = drill.certifies
        assert table is not None  # a table test certifies its table
        with _clock_turned_back(EXPIRED_AGO):
            attempt = self._sit(trainee, boss, drill, Mode.EXAM, rng, 1.0)
            self._practical(trainee, boss, table)
            certification = certification_sign(
                request=_signing_request(),
                trainee=trainee,
                profile=table,
                attempt=attempt,
                signer=boss,
                password=DEMO_PASSWORD,
                statement="I have reviewed this trainee's table test and certify them to deal "
                "this game.",
            )
        self.stdout.write(
            f"  {drill.title}: {self._score(attempt)}, signed "
            f"{certification.signed_at:%Y-%m-%d}, expired {certification.expires_at:%Y-%m-%d}"
        )
        self._withdrawn_then_valid(trainee, boss, drill, rng)
        return True

    def _signed(self, trainee: Any, boss: Any, drill: Any, rng: random.Random) -> Any:
        attempt = self._sit(trainee, boss, drill, Mode.EXAM, rng, 1.0)
        return certification_sign(
            request=_signing_request(),
            trainee=trainee,
            profile=drill.certifies,
            attempt=attempt,
            signer=boss,
            password=DEMO_PASSWORD,
            statement="I have reviewed this trainee's table test and certify them to deal "
            "this game.",
        )

    def _withdrawn_then_valid(
        self, trainee: Any, boss: Any, drill: Any, rng: random.Random
    ) -> None:
        """A certification at the expired one's table withdrawn, then one valid now."""
        with _clock_turned_back(WITHDRAWN_AGO):
            withdrawn = self._signed(trainee, boss, drill, rng)
        with _clock_turned_back(WITHDRAWAL_AGO):
            certification_withdraw(
                request=_signing_request(),
                certification=withdrawn,
                signer=boss,
                password=DEMO_PASSWORD,
                statement="Paid a natural at even money twice on the floor: withdrawn "
                "until retested.",
            )
        with _clock_turned_back(RECERTIFIED_AGO):
            valid = self._signed(trainee, boss, drill, rng)
        self.stdout.write(
            f"  {drill.title}: signed {withdrawn.signed_at:%Y-%m-%d}, withdrawn; signed "
            f"again {valid.signed_at:%Y-%m-%d}, valid until {valid.expires_at:%Y-%m-%d}"
        )

    def _ready_sitting(self, trainee: Any, boss: Any, rng: random.Random) -> bool:
        drill = self._table_test(READY_TABLE, boss)
        if self._sat(trainee, drill):
            return False
        attempt = self._sit(trainee, boss, drill, Mode.EXAM, rng, 1.0)
        self.stdout.write(f"  {drill.title}: {self._score(attempt)}, ready for the sign-off")
        return True

    def _play(
        self,
        attempt: Attempt,
        trainee: Any,
        rng: random.Random,
        right: float,
        rounds: int | None = None,
    ) -> int:
        """Answer every question (of the first ``rounds`` rounds), each some seconds after
        it was shown."""
        answered = 0
        game = game_named(attempt.drill.game)
        while (question := attempt_question_show(attempt=attempt, user=trainee)) is not None:
            position, n = question["position"], question["n"]
            item = AttemptItem.objects.get(attempt=attempt, position=position)
            key = next(k for k in item.answer_key if k["n"] == n)
            # A human takes seconds to answer; the question was shown that long ago.
            shown = timezone.now() - timedelta(milliseconds=rng.randint(1500, 12000))
            item.questions_shown = {**item.questions_shown, str(n): shown.isoformat()}
            item.save(update_fields=["questions_shown"])
            answer = game.demo_answer(key, rng=rng, right=rng.random() < right)
            decision_record(
                attempt=attempt, user=trainee, position=position, question=n, answer=answer
            )
            answered += 1
            if position == rounds and _completed(attempt, position):
                # Left here: the next question is never shown.
                break
        return answered


def _completed(attempt: Attempt, position: int) -> bool:
    """Whether the round at ``position`` has every question answered."""
    return AttemptItem.objects.filter(
        attempt=attempt, position=position, completed_at__isnull=False
    ).exists()


def _signing_request() -> HttpRequest:
    """Where the demo's signature is entered from, as the password lockout needs to know:
    this machine."""
    request = HttpRequest()
    request.method = "POST"
    request.META["REMOTE_ADDR"] = "127.0.0.1"
    return request


@contextmanager
def _clock_turned_back(by: timedelta) -> Iterator[None]:
    """Django's clock (timezone.now, which every record's time and the ledger read) runs
    ``by`` behind while inside: what is made here carries its past dates throughout."""
    real = timezone.now

    def earlier() -> datetime:
        return real() - by

    with mock.patch.object(timezone, "now", earlier):
        yield
