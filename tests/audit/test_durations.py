"""Issue #24, finding 6 (second half of deliver point 7): times taken and left were shown as
"38977 ms" and "Exam time left: 5999 s". One writer (core.durations, the `duration` filter,
and the table's countdown in static/js/table.js) writes them in seconds and minutes."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest
from django.template import Context, Template
from django.urls import reverse

from core.durations import duration_text, whole_seconds_text
from tests.graded import RIGHT, Answer, client_for, make_attempt
from tests.trainer.factories import AssignmentFactory, DrillFactory, natural_document
from trainer.models import Grade, Mode
from trainer.services.attempts import attempt_start

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.parametrize(
    ("value", "unit", "text"),
    [
        (38977, "ms", "39 s"),
        (1600, "ms", "1.6 s"),
        (1549.9, "ms", "1.5 s"),
        (161, "ms", "0.2 s"),
        (2000, "ms", "2 s"),
        (9960, "ms", "10 s"),
        (5999, "s", "1 h 39 min 59 s"),
        (6000, "s", "1 h 40 min"),
        (300, "s", "5 min"),
        (100, "s", "1 min 40 s"),
        (60, "s", "1 min"),
        (59, "s", "59 s"),
        (0, "s", "0 s"),
        (7200, "s", "2 h"),
        (Decimal("8.4"), "s", "8.4 s"),
        (Decimal("12.6"), "s", "13 s"),
        (8, "s", "8 s"),
        (None, "s", "—"),
        ("", "ms", "—"),
        ("abc", "s", "—"),
        (float("nan"), "s", "—"),
    ],
)
def test_a_duration_reads_in_seconds_minutes_and_hours(value, unit, text):
    assert duration_text(value, unit) == text


def test_the_filter_is_in_every_template_without_loading_it():
    template = Template('{{ ms|duration:"ms" }} / {{ left|duration }}')
    assert template.render(Context({"ms": 38977, "left": 5999})) == "39 s / 1 h 39 min 59 s"


@pytest.mark.skipif(shutil.which("node") is None, reason="node runs the table's countdown")
def test_the_tables_countdown_writes_whole_seconds_as_the_server_does():
    script = (ROOT / "static/js/table.js").read_text()
    match = re.search(r"  function durationText\(total\) \{.*?\n  \}\n", script, re.S)
    assert match, "static/js/table.js has no durationText"
    values = [0, 1, 9, 59, 60, 61, 100, 300, 3599, 3600, 3660, 3601, 5999, 6000, 86399]
    program = match.group(0) + f"console.log(JSON.stringify({values}.map(durationText)));"
    shown = subprocess.run(
        ["node", "-e", program], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    assert json.loads(shown) == [whole_seconds_text(v) for v in values]


# --- the pages ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_exam_table_shows_time_left_in_hours_and_minutes(trainee):
    drill = DrillFactory(
        title="Long exam",
        documents=[natural_document()],
        time_limit_seconds=90,
        time_box_seconds=6000,
    )
    assignment = AssignmentFactory(drill=drill, mode=Mode.SPEED, trainee=trainee)
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.SPEED, assignment=assignment)
    html = client_for(trainee).get(reverse("train:table", args=[attempt.pk])).content.decode()
    box = re.search(r'data-timer="box" data-seconds="(\d+)".*?</p>', html, re.S)
    assert box, html[:3000]
    assert int(box.group(1)) >= 5990  # the machine's value stays in seconds for the script
    assert re.search(r'<strong class="timer-value">1 h 39 min 5\d s</strong>', box.group(0)) or (
        '<strong class="timer-value">1 h 40 min</strong>' in box.group(0)
    )
    assert "(of 1 min 30 s;" in html
    assert not re.search(r"\d{3,} s\b", html)


@pytest.fixture
def slow_attempt(trainee, pit):
    return make_attempt(
        trainee=trainee, answers=[Answer(response_ms=38977), RIGHT], mode=Mode.PRACTICE
    )


@pytest.mark.django_db
def test_a_response_time_reads_in_seconds_on_the_trainees_results(trainee, slow_attempt):
    html = client_for(trainee).get(reverse("train:results", args=[slow_attempt.pk]))
    text = html.content.decode()
    assert html.status_code == 200
    assert "39 s" in text
    assert " ms" not in text


@pytest.mark.django_db
def test_response_times_read_in_seconds_on_the_pit_pages(trainee, pit_boss, slow_attempt):
    client = client_for(pit_boss)
    grade = Grade.objects.filter(run__attempt=slow_attempt, response_ms=38977).first()
    assert grade is not None
    pages = [
        reverse("pit:grade", args=[grade.pk]),
        reverse("pit:trainee", args=[trainee.pk]),
        reverse("pit:dashboard"),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        text = response.content.decode()
        assert not re.search(r"\d ms\b|\bms<|Mean ms|p90 ms", text), url
    grade_page = client.get(pages[0]).content.decode()
    assert "39 s" in grade_page
    # The mean of 38.977 s and 3 s: 21 s; the 90th percentile near the slow one.
    dashboard = client.get(pages[2]).content.decode()
    assert "Mean time" in dashboard
    assert re.search(r"\b2[01] s\b", dashboard)
