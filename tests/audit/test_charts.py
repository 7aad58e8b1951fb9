"""The pit's charts: every label readable, whole and telling its points apart."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

from audit.selectors.dashboard import SPEED_BUCKETS_SECONDS, TrendPoint
from audit.web import charts

NOON = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC)


def _labels(svg: str) -> list[str]:
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def test_the_speed_charts_last_label_is_whole():
    buckets = [(s, 1) for s in range(SPEED_BUCKETS_SECONDS + 1)]
    labels = _labels(str(charts.speed_svg(buckets, last=SPEED_BUCKETS_SECONDS)))
    assert f"{SPEED_BUCKETS_SECONDS}+" in labels
    assert not any("…" in label for label in labels)


def test_attempts_on_one_day_are_told_apart_by_their_time():
    points = [
        TrendPoint(1, NOON, "exam", Decimal("50")),
        TrendPoint(2, NOON + dt.timedelta(hours=2), "exam", Decimal("75")),
    ]
    labels = _labels(str(charts.accuracy_trend_svg(points)))
    assert "03-10 12:00" in labels
    assert "03-10 14:00" in labels


def test_attempts_on_different_days_are_labelled_by_date():
    points = [
        TrendPoint(1, NOON, "exam", Decimal("50")),
        TrendPoint(2, NOON + dt.timedelta(days=1), "exam", Decimal("75")),
    ]
    labels = _labels(str(charts.accuracy_trend_svg(points)))
    assert "2026-03-10" in labels
    assert "2026-03-11" in labels
