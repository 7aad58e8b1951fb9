"""Who may open which part of the site, in one place: the pages' access decorators read
their roles from here, and so do the top bar and the home page, so the navigation shows
each person every part they may open and nothing else (a user with several roles sees the
union)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.urls import reverse

from core.roles import Role, roles_of


@dataclass(frozen=True)
class Area:
    """A part of the site with its own front page: the roles that may open it, what its
    link and its home-page panel say, and the words a refusal uses."""

    key: str
    url_name: str
    label: str
    summary: str
    roles: tuple[Role, ...]
    refusal: str
    # Django's admin opens to staff accounts only, whatever their role.
    staff_only: bool = False

    @property
    def url(self) -> str:
        return reverse(self.url_name)

    def open_to(self, user: AbstractBaseUser | AnonymousUser) -> bool:
        if self.staff_only and not getattr(user, "is_staff", False):
            return False
        return bool(roles_of(user) & set(self.roles))


TRAINING = Area(
    key="training",
    url_name="train:home",
    label="My training",
    summary="Your assigned drills, the table and your past attempts.",
    roles=(Role.TRAINEE,),
    refusal="the training pages are for trainees",
)
RECORD = Area(
    key="record",
    url_name="record:mine",
    label="My record",
    summary="Your pit boss's comments on your answers, retraining flags, certifications "
    "and progress by skill.",
    roles=(Role.TRAINEE,),
    refusal="a training record is shown to its trainee",
)
PIT = Area(
    key="pit",
    url_name="pit:dashboard",
    label="Pit",
    summary="The trainees, their figures and mistakes, retraining flags and certifications.",
    roles=(Role.PIT_BOSS, Role.COMPLIANCE, Role.ADMIN),
    refusal="the pit's pages are for pit bosses and compliance",
)
# Within the pit, compliance reads only: acting (a review, a flag, a sign-off) is for these.
PIT_ACTORS = (Role.PIT_BOSS, Role.ADMIN)
COMPLIANCE = Area(
    key="compliance",
    url_name="compliance:index",
    label="Compliance",
    summary="Compliance reports and the check of the decision log.",
    roles=(Role.COMPLIANCE, Role.ADMIN),
    refusal="the compliance pages are for compliance officers and admins",
)
ADMINISTRATION = Area(
    key="admin",
    url_name="administration:index",
    label="Administration",
    summary="Manage people and their roles, classes and their instructors.",
    roles=(Role.ADMIN,),
    refusal="administration is for administrators",
)
WORKSPACE = Area(
    key="workspace",
    url_name="teach:index",
    label="Classes and drills",
    summary="Rosters, drills, scenarios and assignments for the classes you teach.",
    roles=(Role.PIT_BOSS, Role.ADMIN),
    refusal="the classes and drills are for pit bosses and administrators",
)

TABLES = Area(
    key="tables",
    url_name="tables",
    label="Table cards",
    summary="The whole house rule of each table, to read or print.",
    roles=(Role.TRAINEE, Role.PIT_BOSS, Role.COMPLIANCE, Role.ADMIN),
    refusal="the table cards are for the casino's staff",
)

HOUSE_RULES = Area(
    key="house_rules",
    url_name="house_rules:index",
    label="House rules",
    summary="Change a table's rules from a date, or open a new table from a copy of one.",
    roles=(Role.ADMIN,),
    refusal="the house rules are changed by administrators",
)

AREAS = (TRAINING, RECORD, PIT, WORKSPACE, COMPLIANCE, ADMINISTRATION, TABLES, HOUSE_RULES)


def areas_for(user: AbstractBaseUser | AnonymousUser) -> list[Area]:
    """The parts of the site this user may open, in the top bar's order."""
    if not user.is_authenticated:
        return []
    return [area for area in AREAS if area.open_to(user)]
