from django import template

from trainer import labels
from trainer.games import DEFAULT_GAME, game_named

register = template.Library()


@register.filter
def dealer_words(text: str) -> str:
    """`{{ prompt|dealer_words }}`: an engine's prompt in the game's words (blackjack's
    cards as rank and suit, not the engine's codes)."""
    return game_named(DEFAULT_GAME).prompt_words(text)


@register.filter
def skills_label(skills: object) -> str:
    """`{{ flag.skills|skills_label }}`: skills by their labels, not their slugs."""
    return labels.skills_label(skills)


@register.filter
def category_words(category: str | None) -> str:
    """`{{ row.category|category_words }}`: why an answer was wrong, by its label."""
    return labels.category_label(category)
