"""Making drills (fixed sets of scenarios, or generator recipes) and assigning them.

Over 400 lines on purpose: a drill's making, retiring and its table test share
the checks of what may be dealt (a pool's rounds dealt nowhere else, the recipe's
minimums, another class's open assignment); split, each part would import the others'
private checks."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from core.amounts import decimal_amount
from core.errors import ConflictError, ForbiddenError, NotFoundError, ProductError, echo
from core.roles import Role, has_role
from ledger.events import Event, Subject
from ledger.services.append import ledger_append
from trainer.games import DocumentError, game_named
from trainer.labels import skill_codes
from trainer.models import (
    Assignment,
    Drill,
    DrillKind,
    DrillPurpose,
    DrillScenario,
    RuleProfile,
    RuleProfileVersion,
    Scenario,
    TrainingClass,
)
from trainer.selectors.blueprints import (
    TABLE_TEST_MIN_ROUNDS,
    blueprint_shortfalls,
    table_test_skills,
)
from trainer.selectors.pools import drills_dealing, is_pool, pool_size_problem

MAX_ROUNDS = 500
MAX_TIME_LIMIT = 3600
MAX_TIME_BOX = 24 * 3600
# The most boxes a generated round plays when its drill does not say.
DEFAULT_BOXES = 3


def whole_number(value: object, field: str, low: int, high: int) -> int:
    """A whole number in range from the input, else ProductError naming the field."""
    if type(value) is not int or not low <= value <= high:
        raise ProductError(f"{field} must be a whole number from {low} to {high}", field=field)
    return value


def manager_required(user: AbstractBaseUser) -> None:
    """Drills and assignments are made by pit bosses and administrators only."""
    if not has_role(user, Role.PIT_BOSS, Role.ADMIN):
        raise ForbiddenError("only a pit boss or an administrator may do this")


def _amount(value: object, field: str) -> Decimal:
    """A money amount from a decimal string, int or Decimal; floats are refused, and so are
    digits other than 0-9 (the pattern is ASCII; Python's ``\\d`` and Decimal are not)."""
    if isinstance(value, bool) or not isinstance(value, str | int | Decimal):
        raise ProductError(f'{field} must be a decimal string like "25.00"', field=field)
    text = str(value)
    amount = decimal_amount(text, whole_digits=10, leading_zeros=False)
    if amount is None:
        if text.startswith("-"):
            raise ProductError(f"{field} must not be negative, not {echo(text)}", field=field)
        raise ProductError(
            f"{field} must be an amount of the digits 0-9, with at most 10 digits and 2 "
            f"decimals, not {echo(text)}",
            field=field,
        )
    return amount


def _scenarios(items: Sequence[Scenario | str]) -> list[Scenario]:
    slugs = [s for s in items if isinstance(s, str)]
    by_slug = {s.slug: s for s in Scenario.objects.filter(slug__in=slugs, is_active=True)}
    out = []
    for item in items:
        scenario = by_slug.get(item) if isinstance(item, str) else item
        if scenario is None:
            raise NotFoundError(f"no active scenario {echo(item)}", field="scenarios")
        if not scenario.is_active:
            raise ProductError(
                f"scenario {scenario.slug!r} has been superseded by a newer revision",
                field="scenarios",
            )
        out.append(scenario)
    return out


def drill_create(
    *,
    title: str,
    kind: str,
    user: AbstractBaseUser,
    scenarios: Sequence[Scenario | str] = (),
    profile_version: RuleProfileVersion | None = None,
    skills: Sequence[str] = (),
    count: int = 10,
    min_stake: object = None,
    max_stake: object = None,
    max_boxes: int | None = None,
    time_limit_seconds: int = 60,
    time_box_seconds: int = 300,
    pass_mark: object = Decimal("95.00"),
    description: str = "",
    purpose: str = DrillPurpose.PRACTICE,
    certifies: RuleProfile | None = None,
    skill_minimums: Mapping[str, int] | None = None,
    made_for: AbstractBaseUser | None = None,
) -> Drill:
    """A new drill: an ordered set of library scenarios (fixed) or a recipe (generated).

    A drill ``made_for`` one trainee (a refresher) is theirs: no other trainee practises it
    or sees it in "Practise any drill" (an assignment still gives it to whom it names).

    An exam (``purpose="exam"``) is sealed: a fixed exam is a pool of at least
    ``POOL_FACTOR`` (5) times the ``count`` rounds drawn per sitting, all different
    scenarios (trainer.selectors.pools); a generated one deals fresh rounds per sitting.
    An exam that ``certifies`` a profile is its table test and must cover every skill
    that table needs (trainer.selectors.blueprints).

    ProductError names the field at fault; nothing is written unless all of it is right.
    """
    manager_required(user)
    title = (title or "").strip()
    if not title or len(title) > 200:
        raise ProductError("title must be 1 to 200 characters", field="title")
    if kind not in DrillKind.values:
        raise ProductError(f"kind must be one of {', '.join(DrillKind.values)}", field="kind")
    if purpose not in DrillPurpose.values:
        raise ProductError(
            f"purpose must be one of {', '.join(DrillPurpose.values)}", field="purpose"
        )
    if certifies is not None and purpose != DrillPurpose.EXAM:
        raise ProductError("only an exam can be a table test", field="certifies")
    time_limit = whole_number(time_limit_seconds, "time_limit_seconds", 1, MAX_TIME_LIMIT)
    time_box = whole_number(time_box_seconds, "time_box_seconds", 10, MAX_TIME_BOX)
    mark = _amount(pass_mark, "pass_mark")
    if mark > 100:
        raise ProductError("pass_mark is a percentage from 0 to 100", field="pass_mark")
    fields = {
        "title": title,
        "description": description,
        "kind": kind,
        "time_limit_seconds": time_limit,
        "time_box_seconds": time_box,
        "pass_mark": mark,
        "created_by_id": user.pk,
        # A table test is the department's (administrators retire it); else its author's.
        "owner_id": None if certifies is not None else user.pk,
        "purpose": purpose,
        "certifies": certifies,
        "made_for_id": made_for.pk if made_for is not None else None,
    }
    if kind == DrillKind.FIXED:
        if certifies is not None:
            raise ProductError(
                "a table test deals fresh rounds: make it a generated drill", field="kind"
            )
        chosen = _scenarios(scenarios)
        if not chosen:
            raise ProductError("a fixed drill needs at least one scenario", field="scenarios")
        games = sorted({s.game for s in chosen})
        if len(games) > 1:
            raise ProductError(
                "a drill deals one game: its scenarios are rounds of " + " and ".join(games),
                field="scenarios",
            )
        fields["game"] = games[0]
        size = len(chosen)
        if purpose == DrillPurpose.EXAM:
            size = whole_number(count, "count", 1, MAX_ROUNDS)
            _pool_check(title, chosen, size)
        _dealt_once_check(chosen, pool=purpose == DrillPurpose.EXAM)
        with transaction.atomic():
            drill = Drill.objects.create(count=size, **fields)
            DrillScenario.objects.bulk_create(
                DrillScenario(drill=drill, scenario=s, position=n)
                for n, s in enumerate(chosen, start=1)
            )
            _record_created(drill, user, scenarios=[s.pk for s in chosen])
        return drill
    recipe = _recipe(profile_version, skills, count, min_stake, max_stake, max_boxes)
    recipe["skill_minimums"] = _minimums(skill_minimums or {}, recipe)
    drill = Drill(**recipe, **fields)
    if certifies is not None:
        shortfalls = blueprint_shortfalls(drill=drill)
        if shortfalls:
            raise ProductError(
                f"this exam cannot be the table test for {certifies.name}: "
                + "; ".join(shortfalls),
                field="certifies",
            )
    with transaction.atomic():
        drill.save()
        _record_created(drill, user, scenarios=[])
    return drill


def _pool_check(title: str, chosen: Sequence[Scenario], count: int) -> None:
    """A fixed exam is a pool of different scenarios, POOL_FACTOR times its sitting
    (trainer.selectors.pools says why)."""
    seen: set[int] = set()
    for scenario in chosen:
        if scenario.pk in seen:
            raise ProductError(
                f"scenario {scenario.slug!r} is in the pool twice: a pool's rounds must differ",
                field="scenarios",
            )
        seen.add(scenario.pk)
    problem = pool_size_problem(title=title, pool=len(seen), count=count)
    if problem is not None:
        raise ProductError(problem, field="scenarios", code="pool_too_small")


def _dealt_once_check(chosen: Sequence[Scenario], *, pool: bool) -> None:
    """A pool's rounds are dealt by no other active drill (trainer.selectors.pools, rule 4):
    a practice drill would show their expected answers after each round."""
    others = drills_dealing(scenario_ids=[s.pk for s in chosen])
    if pool and others:
        raise ConflictError(
            f"a pool's rounds must be dealt nowhere else, and the drill '{others[0].title}' "
            "deals some of these: choose other scenarios",
            field="scenarios",
            code="pool_shared",
        )
    pools = [d for d in others if is_pool(d)]
    if pools:
        raise ConflictError(
            "some of these scenarios are rounds of a sealed exam pool, whose answers no other "
            "drill may show: choose other scenarios",
            field="scenarios",
            code="in_pool",
        )


def _record_created(drill: Drill, user: AbstractBaseUser, *, scenarios: list[int]) -> None:
    ledger_append(
        event=Event.DRILL_CREATED,
        subject_type=Subject.DRILL,
        subject_id=drill.pk,
        payload={
            "title": drill.title,
            "kind": drill.kind,
            "purpose": drill.purpose,
            "certifies": drill.certifies_id,
            "profile_version": drill.profile_version_id,
            "skills": list(drill.skills),
            "skill_minimums": dict(drill.skill_minimums),
            "scenarios": scenarios,
            "count": drill.count,
            "min_stake": drill.min_stake,
            "max_stake": drill.max_stake,
            "max_boxes": drill.max_boxes,
            "time_limit_seconds": drill.time_limit_seconds,
            "time_box_seconds": drill.time_box_seconds,
            "pass_mark": drill.pass_mark,
            **({"made_for": drill.made_for_id} if drill.made_for_id else {}),
        },
        actor=user,
    )


def drill_retire(*, drill: Drill, user: AbstractBaseUser, reason: str = "") -> Drill:
    """Take a drill out of use: nobody can be assigned it or start it again; its attempts,
    grades and the certifications resting on them stay as they are.

    Only its owner (its author; a table test is the department's) or an administrator
    retires it, and never while an open assignment of a class the retirer does not teach
    (or of a trainee outside their classes) uses it: that class could no longer sit it."""
    manager_required(user)
    if not has_role(user, Role.ADMIN) and (drill.owner_id is None or drill.owner_id != user.pk):
        if drill.certifies_id is not None:
            whose = "a table test is the department's: only an administrator retires it"
        elif drill.owner_id is None:
            whose = "its author is not recorded: only an administrator retires it"
        else:
            whose = "only its author or an administrator retires it"
        raise ForbiddenError(f"you may not retire '{drill.title}': {whose}")
    with transaction.atomic():
        locked = Drill.objects.select_for_update().get(pk=drill.pk)
        if not locked.is_active:
            raise ConflictError(f"drill '{locked.title}' is already retired", field="drill")
        users = _open_elsewhere(drill=locked, user=user)
        if users:
            raise ConflictError(
                f"'{locked.title}' cannot be retired: it is assigned, open, to "
                f"{', '.join(users)}, who could then no longer sit it; their instructors "
                "cancel those assignments first",
                field="drill",
                code="in_use",
            )
        locked.is_active = False
        locked.save(update_fields=["is_active"])
        ledger_append(
            event=Event.DRILL_RETIRED,
            subject_type=Subject.DRILL,
            subject_id=locked.pk,
            payload={"title": locked.title, "reason": reason.strip()[:2000]},
            actor=user,
        )
    drill.is_active = False
    return drill


def _open_elsewhere(*, drill: Drill, user: AbstractBaseUser) -> list[str]:
    """Who holds an open assignment of this drill (not cancelled, not past its due date)
    outside the classes ``user`` teaches: the classes by name, trainees as "a trainee of
    <class>" or "a trainee on no class"."""
    now = timezone.now()
    taught = TrainingClass.objects.filter(instructors=user.pk)
    open_ = Assignment.objects.filter(drill=drill, cancelled_at__isnull=True).filter(
        Q(due_at__isnull=True) | Q(due_at__gt=now)
    )
    names = set(
        open_.filter(training_class__isnull=False)
        .exclude(training_class__in=taught)
        .values_list("training_class__name", flat=True)
    )
    for assignment in (
        open_.filter(trainee__isnull=False)
        .exclude(trainee__classes_attended__in=taught)
        .select_related("trainee")
    ):
        theirs = TrainingClass.objects.filter(trainees=assignment.trainee_id).values_list(
            "name", flat=True
        )
        names.update(theirs or ["a trainee on no class"])
    return sorted(names)


def _minimums(minimums: Mapping[str, int], recipe: Mapping[str, object]) -> dict[str, int]:
    if not isinstance(minimums, Mapping):
        raise ProductError("skill_minimums must map skills to round counts", field="skill_minimums")
    out = {}
    for skill, least in minimums.items():
        if skill not in skill_codes(str(recipe["game"])):
            raise ProductError(f"unknown skill {echo(str(skill))}", field="skill_minimums")
        out[skill] = whole_number(least, f"skill_minimums[{skill}]", 1, MAX_ROUNDS)
    total = sum(out.values())
    count = recipe["count"]
    assert isinstance(count, int)
    if total > count:
        raise ProductError(
            f"the skill minimums add up to {total} rounds, more than the {count} dealt",
            field="skill_minimums",
        )
    return out


def _recipe(
    profile_version: RuleProfileVersion | None,
    skills: Sequence[str],
    count: int,
    min_stake: object,
    max_stake: object,
    max_boxes: int | None,
) -> dict[str, object]:
    if profile_version is None:
        raise ProductError("a generated drill needs a rule profile", field="profile_version")
    profile = profile_version.engine_profile
    game = profile_version.profile.game
    declared = skill_codes(game)
    unknown = [s for s in skills if s not in declared]
    if unknown:
        raise ProductError(
            f"unknown skill {echo(unknown[0])}; skills are {', '.join(declared)}",
            field="skills",
        )
    rounds = whole_number(count, "count", 1, MAX_ROUNDS)
    # Unsaid, as many boxes as the table has, at most DEFAULT_BOXES (one for a one-layout game).
    if max_boxes is None:
        boxes = min(DEFAULT_BOXES, profile.boxes)
    else:
        boxes = whole_number(max_boxes, "max_boxes", 1, profile.boxes)
    low = profile.min_bet if min_stake is None else _amount(min_stake, "min_stake")
    high = profile.max_bet if max_stake is None else _amount(max_stake, "max_stake")
    if low < profile.min_bet:
        raise ProductError(
            f"min_stake {low} is below {profile.name}'s table minimum {profile.min_bet}",
            field="min_stake",
        )
    if high > profile.max_bet:
        raise ProductError(
            f"max_stake {high} is above {profile.name}'s box maximum {profile.max_bet}",
            field="max_stake",
        )
    if low > high:
        raise ProductError(f"min_stake {low} is above max_stake {high}", field="min_stake")
    try:
        # One trial round: a recipe the generator cannot deal is refused now, not mid-exam.
        game_named(game).generate_rounds(
            rng=random.Random(0),  # noqa: S311 - a reproducible trial, not a secret
            parameters=profile_version.parameters,
            profile=profile_version.profile.name,
            rounds=[list(skills)],
            min_stake=low,
            max_stake=high,
            max_boxes=boxes,
            round_prefix="trial",
        )
    except DocumentError as err:
        raise ProductError(f"the generator cannot deal this recipe: {err}") from err
    return {
        "profile_version": profile_version,
        "game": game,
        "skills": list(skills),
        "count": rounds,
        "min_stake": low,
        "max_stake": high,
        "max_boxes": boxes,
    }


def table_test_create(
    *,
    profile_version: RuleProfileVersion,
    user: AbstractBaseUser,
    title: str | None = None,
    count: int = TABLE_TEST_MIN_ROUNDS,
    time_limit_seconds: int = 30,
    pass_mark: object = Decimal("95.00"),
) -> Drill:
    """The certification exam (table test) for a profile: a sealed blueprint dealing at
    least ``count`` fresh rounds per sitting, with every skill that table needs."""
    profile = profile_version.profile
    existing = next(
        (
            drill
            for drill in Drill.objects.filter(
                is_active=True, certifies__isnull=False, profile_version=profile_version
            )
            # One that no longer covers the table's skills (an older blueprint) is replaced.
            if not blueprint_shortfalls(drill=drill)
        ),
        None,
    )
    if existing is not None:
        raise ConflictError(
            f"{profile.title or profile.name} already has its table test, '{existing.title}': "
            "assign that one (a new version of the table's rules gets a table test of its own)",
            field="profile_version",
        )
    minimums = table_test_skills(profile_version)
    questions_per_round = 4  # a generous average, for the sitting's time box
    return drill_create(
        title=title or f"Table test: {profile.title or profile.name}",
        description=(
            "The certification exam for this table: fresh rounds every sitting, covering "
            "every payout and procedure the table's rules call for."
        ),
        kind=DrillKind.GENERATED,
        purpose=DrillPurpose.EXAM,
        certifies=profile,
        user=user,
        profile_version=profile_version,
        skills=list(minimums),
        skill_minimums=minimums,
        count=count,
        # Up to three boxes a round, as the table has them (one at a one-layout game).
        max_boxes=min(DEFAULT_BOXES, profile_version.engine_profile.boxes),
        time_limit_seconds=time_limit_seconds,
        time_box_seconds=min(MAX_TIME_BOX, count * questions_per_round * time_limit_seconds),
        pass_mark=pass_mark,
    )
