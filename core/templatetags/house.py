"""The house's way of writing what people read; a builtin of every template
(settings.TEMPLATES), so no {% load %} is needed.

`{{ grade.response_ms|duration:"ms" }}` → "39 s"; `{{ clock.box|duration }}` → "1 h 40 min".
"""

from django import template

from core.durations import duration_text

register = template.Library()


@register.filter
def duration(value: object, unit: str = "s") -> str:
    """A duration in seconds (or, with "ms", milliseconds) as people read it."""
    return duration_text(value, unit)
