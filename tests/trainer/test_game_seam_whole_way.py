"""The seam proven (issue 25): a second game, never shipped (tests/seam_game, "dealer-draws"),
with its own kinds, categories, skills, rule parameters, table and cost in points, runs the
whole way through the product as blackjack does: its table set up and its rounds imported
and authored, a drill generated for its skills, dealt, answered on the page and by the API,
graded by a real Celery worker, reviewed on the pit's drill-down, read in the trainee's
results and My record, and reported in the compliance CSV and PDF (its points beside the
money), in its own words and no blackjack's."""

from __future__ import annotations

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
from trainer.models import Attempt, Grade, GradingStatus, Mode, RuleProfile
from trainer.services.attempts import attempt_start
from trainer.services.drills import drill_create
from trainer.services.profiles import profile_version_create
from trainer.services.scenario_authoring import scenario_create
from trainer.services.scenarios import scenario_import

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

TABLE = "dealer-draws-table"
# Blackjack's words a page, a CSV or a PDF of this game must never show.
BLACKJACK_WORDS = ("Procedure error", "Wrong outcome", "Overpay", "Take half", "Blackjack pays")


def _round(total: int, **more: object) -> dict[str, object]:
    return {
        "format": "dealer-draws/1",
        "id": f"draws-{total}",
        "title": f"Dealer has {total}",
        "skills": ["stiff-hands" if total < 17 else "pat-hands"],
        "rules": TABLE,
        "total": total,
        **more,
    }


def _no_blackjack(text: str, where: str) -> None:
    for word in BLACKJACK_WORDS:
        assert word not in text, (where, word)


@needs_pdftotext
def test_a_second_game_runs_the_whole_way(
    celery_worker, trainee, pit_boss, compliance_officer, settings, tmp_path
):
    media = settings.MEDIA_ROOT = tmp_path / "media"
    TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])

    # Its table, judged by the game; its rounds imported and authored; a drill generated.
    table = RuleProfile.objects.create(name=TABLE, title="Dealer draws", game="dealer-draws")
    version = profile_version_create(
        profile=table,
        parameters={"stands_on": 17, "min_bet": "1", "max_bet": "100", "boxes": 1},
        notes="The test game's table.",
    )
    imported = scenario_import(documents=[_round(12), _round(19)])
    authored = scenario_create(document={**_round(15), "id": "draws-authored"}, user=pit_boss)
    assert {s.game for s in [*imported, authored]} == {"dealer-draws"}
    fixed = drill_create(
        title="Stiffs and pat hands", kind="fixed", user=pit_boss, scenarios=[*imported, authored]
    )
    generated = drill_create(
        title="Stiffs",
        kind="generated",
        user=pit_boss,
        profile_version=version,
        skills=["stiff-hands"],
        count=2,
        max_boxes=1,
    )
    assert (fixed.game, generated.game) == ("dealer-draws", "dealer-draws")
    dealt = attempt_start(trainee=trainee, drill=generated, mode=Mode.PRACTICE)
    assert [item.answer_key[0]["expected"] for item in dealt.items.all()] == [
        {"answer": "hit"},
        {"answer": "hit"},
    ]

    # Dealt on the table page; the first round answered there, the rest by the API.
    attempt = attempt_start(trainee=trainee, drill=fixed, mode=Mode.PRACTICE)
    page = client_for(trainee)
    html = page.get(reverse("train:table", args=[attempt.pk])).content.decode()
    assert "The dealer holds 12: draw or stand?" in html
    assert "Draw a card" in html
    _no_blackjack(html, "table")
    answered = page.post(
        reverse("train:answer", args=[attempt.pk]),
        {"position": "1", "question": "1", "answer": "stand"},
    )
    assert answered.status_code == 302
    api = APIClient()
    api.force_login(trainee)
    url = f"/api/attempts/{attempt.pk}"
    for answer in ("hit", "stand"):
        question = api.get(f"{url}/question").json()["question"]
        body = {
            "position": question["position"],
            "question": question["n"],
            "answer": {"answer": answer},
        }
        assert api.post(f"{url}/answers", body, format="json").status_code == 201

    # Submitted on the page, graded by the worker.
    page.post(reverse("train:submit", args=[attempt.pk]), {"confirm": "yes"})
    poll(
        lambda: Attempt.objects.get(pk=attempt.pk).grading_status,
        lambda status: status == GradingStatus.GRADED,
    )
    grades = Grade.objects.filter(run__attempt=attempt).order_by("item__position")
    # 12: stood on a stiff; 19: drew on a pat hand; 15 (authored): stood on a stiff.
    assert [(g.correct, g.category, g.points_diff) for g in grades] == [
        (False, "stood_on_stiff", 1),
        (False, "drew_on_pat", 1),
        (False, "stood_on_stiff", 1),
    ]

    # The trainee reads the results and My record in the game's words.
    results = page.get(reverse("train:results", args=[attempt.pk])).content.decode()
    assert "Stood on a stiff" in results
    assert "Drew on a pat hand" in results
    # Its mistakes cost points: totalled beside the money, never as money.
    assert "Points lost to mistakes: <strong>3 points</strong>" in results
    _no_blackjack(results, "results")
    record = page.get(reverse("record:mine")).content.decode()
    assert "Drawing to a stiff" in record
    _no_blackjack(record, "my record")

    # The pit boss reviews a mistake on the drill-down.
    pit = client_for(pit_boss)
    dashboard = pit.get(reverse("pit:dashboard")).content.decode()
    assert "<dt>Points lost</dt><dd>3 points</dd>" in dashboard
    mistake = grades[1]
    drill_down = pit.get(reverse("pit:grade", args=[mistake.pk])).content.decode()
    assert "Drew on a pat hand" in drill_down
    assert "The dealer holds 19: draw or stand?" in drill_down
    _no_blackjack(drill_down, "drill-down")
    reviewed = pit.post(reverse("pit:grade_review", args=[mistake.pk]), {"comment": "Stand on 19."})
    assert reviewed.status_code == 302
    assert Review.objects.get(grade=mistake).comment == "Stand on 19."

    # The compliance officer's CSV and PDF name the game's mistakes and answers.
    day = Attempt.objects.get(pk=attempt.pk).submitted_at.date()
    csv = compliance_report_request(start=day, end=day, fmt="csv", user=compliance_officer)
    csv_text = (Path(media) / csv.file.name).read_text()
    for words in (
        "Draw or stand",
        "Stood on a stiff",
        "Drew on a pat hand",
        "Draw a card",
        "summary,points lost to mistakes,3",
        "overpaid,underpaid,points_lost",
    ):
        assert words in csv_text, words
    _no_blackjack(csv_text, "csv")
    pdf = compliance_report_request(start=day, end=day, fmt="pdf", user=compliance_officer)
    pdf_words = " ".join(pdf_text(Path(media) / pdf.file.name).split())
    assert "Stood on a stiff" in pdf_words
    assert "points lost to mistakes 3" in pdf_words
    _no_blackjack(pdf_words, "pdf")
    assert ledger_verify().ok
