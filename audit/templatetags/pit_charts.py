"""The pit's inline SVG charts, fitted to the page's Content-Security-Policy."""

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeData, SafeString, mark_safe

register = template.Library()


@register.filter
def with_nonce(svg: SafeString, nonce: object) -> SafeString:
    """The chart with the request's CSP nonce on its stylesheet.

    pygal writes each chart's colours and fonts in a <style> inside the SVG, scoped to the
    chart's own id; the policy admits no inline style but one that carries the nonce. The
    charts are cached across requests, so the nonce is added as the page is drawn.
    """
    if not isinstance(svg, SafeData):
        return escape(svg)
    tagged = str(svg).replace("<style", f'<style nonce="{escape(str(nonce))}"', 1)
    return mark_safe(tagged)  # noqa: S308
