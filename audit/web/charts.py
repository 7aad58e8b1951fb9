"""The pit's charts, drawn on the server as inline SVG (pygal): no script at all.

Drawing a chart takes pygal tens of milliseconds, while the figures behind it change only
when new grades arrive: each chart is kept by its data, so a page shown again redraws
nothing.

A chart is a picture: each comes with its figures as a table (its text alternative, WCAG
1.1.1), which the page shows under it (templates/audit/pit/_chart.html).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import pygal
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from pygal.style import Style

from audit.selectors.dashboard import TrendPoint

_STYLE = Style(
    background="transparent",
    plot_background="transparent",
    foreground="#1d232a",
    foreground_strong="#1d232a",
    foreground_subtle="#d6d9dc",
    colors=("#0f5132", "#b02a37", "#b8860b", "#0b5ed7", "#5b6570", "#6f42c1", "#fd7e14"),
    font_family="system-ui, sans-serif",
    label_font_size=15,
    major_label_font_size=15,
    title_font_size=18,
)
_SIZE = {"width": 520, "height": 320}


@dataclass(frozen=True)
class Chart:
    """A drawn chart and the same figures in words: its title, and a table of them."""

    svg: SafeString
    title: str
    columns: tuple[str, str]
    rows: tuple[tuple[str, str], ...]

    def __str__(self) -> str:
        return str(self.svg)


# pygal writes its configuration as a script (read only by its own JavaScript, which is not
# loaded) and hides the tooltip with a style attribute: the page's Content-Security-Policy
# refuses both, so the script goes and the tooltip is hidden by an SVG attribute. The
# chart's own <style> stays: the page gives it the request's nonce (the with_nonce filter).
_SCRIPT = re.compile(r"<script\b.*?</script>", re.DOTALL)
_HIDDEN = 'style="opacity: 0"'


def _svg(chart: pygal.graph.graph.Graph) -> SafeString:
    svg = _SCRIPT.sub("", chart.render(is_unicode=True)).replace(_HIDDEN, 'opacity="0"')
    # The table under the chart says what it shows; a screen reader reads that, not the
    # picture's hundred scattered labels.
    svg = svg.replace("<svg ", '<svg aria-hidden="true" focusable="false" ', 1)
    # pygal escapes every label and value it writes, so the SVG is safe to inline.
    return mark_safe(svg)  # noqa: S308


def _chart(kind: type[pygal.graph.graph.Graph], title: str, **config: object) -> pygal.Graph:
    settings: dict[str, object] = {
        "js": [],
        "disable_xml_declaration": True,
        "style": _STYLE,
        "title": title,
        "show_legend": False,
        # pygal cuts a label it thinks too long ("20+" became "2…"): never cut one.
        "truncate_label": -1,
        **_SIZE,
    }
    return kind(**{**settings, **config})


def accuracy_trend_svg(points: Sequence[TrendPoint]) -> Chart:
    days = [timezone.localtime(p.when).date() if p.when else None for p in points]
    # Several attempts a day would all read the same date: then each says its time too.
    same_day = len({d for d in days if d is not None}) < len([d for d in days if d is not None])
    labels = tuple(
        "not submitted"
        if p.when is None
        else f"{timezone.localtime(p.when):%m-%d %H:%M}"
        if same_day
        else timezone.localtime(p.when).date().isoformat()
        for p in points
    )
    return Chart(
        svg=_trend(labels, tuple(float(p.accuracy) for p in points)),
        title=TREND_TITLE,
        columns=("Attempt", "Accuracy (%)"),
        rows=tuple((label, str(p.accuracy)) for label, p in zip(labels, points, strict=True)),
    )


TREND_TITLE = "Accuracy by attempt (%)"


@lru_cache(maxsize=512)
def _trend(labels: tuple[str, ...], values: tuple[float, ...]) -> SafeString:
    chart = _chart(pygal.Line, TREND_TITLE, range=(0, 100), x_label_rotation=30)
    chart.x_labels = labels
    chart.add("Accuracy", values)
    return _svg(chart)


def error_mix_svg(rows: Sequence[tuple[str, int]], *, title: str = "Mistakes by category") -> Chart:
    return Chart(
        svg=_error_mix(tuple(rows), title),
        title=title,
        columns=("Category", "Mistakes"),
        rows=tuple((label, str(count)) for label, count in rows),
    )


@lru_cache(maxsize=512)
def _error_mix(rows: tuple[tuple[str, int], ...], title: str) -> SafeString:
    chart = _chart(pygal.Bar, title, x_label_rotation=20)
    chart.x_labels = [label for label, _ in rows]
    chart.add("Mistakes", [count for _, count in rows])
    return _svg(chart)


SPEED_TITLE = "Response time (answers per second band)"


def speed_svg(buckets: Sequence[tuple[int, int]], *, last: int) -> Chart:
    return Chart(
        svg=_speed(tuple(buckets), last),
        title=SPEED_TITLE,
        columns=("Seconds", "Answers"),
        rows=tuple(
            (f"{s} s or more" if s == last else f"{s} to {s + 1} s", str(n)) for s, n in buckets
        ),
    )


@lru_cache(maxsize=512)
def _speed(buckets: tuple[tuple[int, int], ...], last: int) -> SafeString:
    chart = _chart(
        pygal.Bar,
        SPEED_TITLE,
        x_labels_major_every=5,
        show_minor_x_labels=False,
    )
    chart.x_labels = [f"{s}+" if s == last else str(s) for s, _ in buckets]
    chart.add("Answers", [n for _, n in buckets])
    return _svg(chart)
