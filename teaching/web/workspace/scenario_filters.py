"""The scenario list's search and filters (django-filter): words of the title, the table,
a skill, a difficulty; the page shows the active library a page at a time."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet, TextField
from django.db.models.functions import Cast

from core.errors import CHOICE_ERRORS
from teaching.selectors.drills import library_profiles
from teaching.web.workspace.drill_forms import ProfileChoiceField
from trainer.labels import skill_choices
from trainer.models import Scenario

# Rows a page: a screenful to scan, and a bounded page however large the library grows.
SCENARIOS_PER_PAGE = 25


class _ProfileFilter(django_filters.ModelChoiceFilter):
    field_class = ProfileChoiceField


class ScenarioFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(label="Title has the words", method="title_words", max_length=200)
    table = _ProfileFilter(
        label="Table",
        field_name="profile_version__profile",
        queryset=library_profiles(),
        empty_label="Any table",
        error_messages={"invalid_choice": "choose one of the tables listed"},
    )
    skill = django_filters.ChoiceFilter(
        label="Skill",
        choices=skill_choices,
        empty_label="Any skill",
        method="has_skill",
        error_messages=CHOICE_ERRORS,
    )
    difficulty = django_filters.ChoiceFilter(
        label="Difficulty",
        choices=[(n, str(n)) for n in range(1, 6)],
        empty_label="Any",
        error_messages=CHOICE_ERRORS,
    )

    class Meta:
        model = Scenario
        fields: list[str] = []

    def title_words(self, queryset: QuerySet[Scenario], name: str, value: str) -> Any:
        for word in value.split()[:8]:
            queryset = queryset.filter(title__icontains=word)
        return queryset

    def has_skill(self, queryset: QuerySet[Scenario], name: str, value: str) -> Any:
        # Skills are a JSON list; its text holds each skill in quotes on SQLite and
        # PostgreSQL alike (JSON "contains" is not portable to SQLite).
        return queryset.annotate(skills_text=Cast("skills", TextField())).filter(
            skills_text__contains=f'"{value}"'
        )
