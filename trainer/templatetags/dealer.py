from decimal import Decimal

from django import template

from trainer import labels

register = template.Library()


@register.filter
def points_words(points: Decimal | None) -> str:
    """`{{ figures.points|points_words }}`: points lost, "3 points" (never money)."""
    return labels.points_text(points)


@register.filter
def skills_label(skills: object) -> str:
    """`{{ flag.skills|skills_label }}`: skills by their labels, not their slugs."""
    return labels.skills_label(skills)


@register.filter
def category_words(category: str | None) -> str:
    """`{{ row.category|category_words }}`: why an answer was wrong, by its label."""
    return labels.category_label(category)
