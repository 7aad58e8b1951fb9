"""Scarne's Casino the whole way (issue 26), as the test game runs it
(test_game_seam_whole_way.py): its situations imported through the product's import
service, a drill made, dealt, answered on the table page and by the API, graded by the real
Celery worker, reviewed on the pit's drill-down, read in the trainee's results and My
record, and reported in the compliance CSV and PDF, in a dealer's words and with no
internal name."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from audit.models import Review
from audit.services.reports.lifecycle import compliance_report_request
from ledger.services.verify import ledger_verify
from tests.audit.factories import TrainingClassFactory
from tests.graded import client_for, poll
from tests.pdf import needs_pdftotext, pdf_text
from trainer.models import Attempt, Grade, GradingStatus, Mode
from trainer.services.attempts import attempt_start
from trainer.services.drills import drill_create
from trainer.services.scenarios import scenario_import

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

CONFORMANCE = Path(__file__).resolve().parents[1] / "casino" / "conformance" / "valid.jsonl"
# Internal names a page, a CSV or a PDF must never show, nor blackjack's words.
INTERNAL = re.compile(
    r"non_dealer|is_legal|may_take|legal_plays|score_hand|rule_on|wrong_verdict|wrong_reason"
    r"|missed_items|extra_items|missed_plays|illegal_play_listed|misscored_line|wrong_winner"
    r"|wrong_ruling|loss_of_game|no_card_to_take|must_not_trail|big_casino|little_casino"
    r"|Procedure error|Wrong outcome|Overpay|Take half|Blackjack pays"
)


def _documents(*ids: str) -> list[dict]:
    rows = [json.loads(line)["scenario"] for line in CONFORMANCE.read_text().splitlines()]
    by_id = {row["id"]: row for row in rows}
    return [by_id[name] for name in ids]


def _no_internal_names(text: str, where: str) -> None:
    found = INTERNAL.search(text)
    assert found is None, (where, found.group(0) if found else "")


@needs_pdftotext
def test_scarnes_casino_runs_the_whole_way(
    celery_worker, trainee, pit_boss, compliance_officer, settings, tmp_path
):
    media = settings.MEDIA_ROOT = tmp_path / "media"
    TrainingClassFactory(name="Casino class", trainees=[trainee], instructors=[pit_boss])

    # Imported through the product's import service, under the shipped scarne-casino table.
    imported = scenario_import(
        documents=_documents("seed-building-nine", "score-last-take", "rulings")
    )
    assert {(s.game, s.profile_version.profile.name) for s in imported} == {
        ("casino", "scarne-casino")
    }
    drill = drill_create(
        title="Casino rulings", kind="fixed", user=pit_boss, scenarios=list(imported)
    )
    assert drill.game == "casino"

    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    page = client_for(trainee)
    html = page.get(reverse("train:table", args=[attempt.pk])).content.decode()
    assert 'data-game="casino"' in html
    assert "The non-dealer plays: A♥ builds 9 with 2♦ and 6♠. Is this play legal?" in html
    assert 'name="casino" value="verdict"' in html
    _no_internal_names(re.sub(r'(name|value|for|id)="[^"]*"', "", html), "table")

    # Round 1 on the page: legal (right), then every legal play (a play missed), then a
    # wrong reason.
    posts = [
        {"casino": "verdict", "legal": "legal"},
        {"casino": "plays", "plays": "trail"},
        {"casino": "verdict", "legal": "illegal", "reason": "wrong_sum"},
    ]
    for n, post in enumerate(posts, start=1):
        page.get(reverse("train:table", args=[attempt.pk]))  # the question on the table
        answered = page.post(
            reverse("train:answer", args=[attempt.pk]),
            {"position": "1", "question": str(n), **post},
        )
        assert answered.status_code == 302, answered.content.decode()[:3000]
    page.get(reverse("train:table", args=[attempt.pk]))
    refused = page.post(
        reverse("train:answer", args=[attempt.pk]),
        {"position": "2", "question": "1", "casino": "score", "winner": "dealer"},
    )
    assert refused.status_code == 400
    assert "Non-dealer&#x27;s cards: write the points, 0 for none" in refused.content.decode()

    # The rest by the API: the score with the cards miscounted, the rulings right but one.
    api = APIClient()
    api.force_login(trainee)
    url = f"/api/attempts/{attempt.pk}"
    score = {
        "non_dealer_cards": 3,
        "non_dealer_spades": 1,
        "non_dealer_big_casino": 0,
        "non_dealer_little_casino": 1,
        "non_dealer_aces": 2,
        "dealer_cards": 0,
        "dealer_spades": 0,
        "dealer_big_casino": 2,
        "dealer_little_casino": 0,
        "dealer_aces": 2,
        "winner": "non_dealer",
    }
    rulings = [
        "loss_of_game",
        "misdeal",
        "hand_redealt",
        "look_at_opponent",
        "no_penalty",
        "misdeal",
        "loss_of_game",
    ]
    for answer in [score, *({"ruling": code} for code in rulings)]:
        question = api.get(f"{url}/question").json()["question"]
        assert "expected" not in question
        body = {"position": question["position"], "question": question["n"], "answer": answer}
        response = api.post(f"{url}/answers", body, format="json")
        assert response.status_code == 201, response.content

    page.post(reverse("train:submit", args=[attempt.pk]), {"confirm": "yes"})
    poll(
        lambda: Attempt.objects.get(pk=attempt.pk).grading_status,
        lambda status: status == GradingStatus.GRADED,
    )
    grades = list(Grade.objects.filter(run__attempt=attempt).order_by("item__position", "question"))
    assert [(g.correct, g.category, g.points_diff) for g in grades] == [
        (True, "", 0),
        (False, "missed_plays", 1),
        (False, "wrong_reason", 1),
        # Cards 3 given to the wrong player: 3 points off each side.
        (False, "misscored_line", 6),
        (True, "", 0),
        (True, "", 0),
        (True, "", 0),
        (True, "", 0),
        (True, "", 0),
        (False, "wrong_ruling", 1),
        (True, "", 0),
    ]

    results = page.get(reverse("train:results", args=[attempt.pk])).content.decode()
    assert "Missed a legal play" in results
    assert "Right call, wrong reason" in results
    assert "Build 9 with 2♦ and 6♠; Trail" in results
    _no_internal_names(results, "results")
    record = page.get(reverse("record:mine")).content.decode()
    assert "Single builds" in record
    assert "Scoring a hand" in record
    _no_internal_names(record, "my record")

    pit = client_for(pit_boss)
    mistake = grades[3]
    drill_down = pit.get(reverse("pit:grade", args=[mistake.pk])).content.decode()
    assert "Miscounted a line of the score" in drill_down
    assert "The hand is over. Score the hand." in drill_down
    _no_internal_names(drill_down, "drill-down")
    reviewed = pit.post(
        reverse("pit:grade_review", args=[mistake.pk]), {"comment": "27 cards score 3."}
    )
    assert reviewed.status_code == 302
    assert Review.objects.get(grade=mistake).comment == "27 cards score 3."

    day = Attempt.objects.get(pk=attempt.pk).submitted_at.date()
    csv = compliance_report_request(start=day, end=day, fmt="csv", user=compliance_officer)
    csv_text = (Path(media) / csv.file.name).read_text()
    for words in (
        "Is this play legal?",
        "Every legal play of this card",
        "Score the hand",
        "Rule on this",
        "Missed a legal play",
        "Wrong ruling",
        "Non-dealer: cards 3",
    ):
        assert words in csv_text, words
    _no_internal_names(csv_text, "csv")
    pdf = compliance_report_request(start=day, end=day, fmt="pdf", user=compliance_officer)
    pdf_words = " ".join(pdf_text(Path(media) / pdf.file.name).split())
    assert "Wrong ruling" in pdf_words
    _no_internal_names(pdf_words, "pdf")
    assert ledger_verify().ok
