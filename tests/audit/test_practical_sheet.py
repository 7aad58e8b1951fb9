"""The observed practical test (audit.services.practical, trainer.games.observing): the
evaluation sheet from the game through the seam, its pass rule, who signs it, locked once
signed and corrected by a new signed row, in the ledger and the training record, and
checked again at a certification's sign-off."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from audit.authority import Rank
from audit.models import Certification, PracticalSheet
from audit.services.practical import practical_sheet_sign, sheet_template
from core.errors import ProductError
from ledger.events import Event
from ledger.models import LedgerEntry
from ledger.services.verify import ledger_verify
from tests.audit.factories import table_test
from tests.audit.test_certification import sign, sit
from tests.audit.test_training_record import pdf_text
from tests.factories import PASSWORD, UserFactory
from tests.graded import client_for, signing_request
from tests.ledger.test_vouched_rows import raw
from tests.pdf import needs_pdftotext
from trainer.games import game_named
from trainer.games.observing import (
    Marks,
    ProcedureItem,
    RubricLine,
    SheetTemplate,
    TimedItem,
    sheet_outcome,
)
from trainer.models import RuleProfile

pytestmark = pytest.mark.practical


@pytest.fixture
def shoe(db):
    return RuleProfile.objects.get(name="casino-shoe")


def good_marks(profile) -> dict:
    template = sheet_template(profile)
    return {
        "procedures": {p.code: True for p in template.procedures},
        "timed": {t.code: "8.4" for t in template.timed},
        "rubric": {r.code: "8" for r in template.rubric},
    }


def evaluate(trainee, profile, evaluator, marks=None, **kwargs):
    return practical_sheet_sign(
        trainee=trainee,
        profile=profile,
        evaluator=evaluator,
        password=kwargs.pop("password", PASSWORD),
        request=signing_request(),
        marks=marks if marks is not None else good_marks(profile),
        comments=kwargs.pop("comments", "Calm, clean hands."),
        **kwargs,
    )


def refused(call) -> ProductError:
    before = PracticalSheet.objects.count()
    with pytest.raises(ProductError) as caught:
        call()
    assert PracticalSheet.objects.count() == before, "a refused sheet writes nothing"
    return caught.value


# The sheet, from the game.


def test_blackjacks_sheet_has_its_procedures_timed_items_and_rubric(shoe):
    template = sheet_template(shoe)
    codes = {p.code for p in template.procedures}
    assert {"insurance", "peek", "right_to_left", "cut_card"} <= codes
    timed = {t.code: t.target_seconds for t in template.timed}
    assert timed["count_down"] == 10
    assert timed["largest_insurance"] == 10
    assert {r.code: r.weight for r in template.rubric} == {
        "hospitality": 3,
        "technical": 2,
        "control": 2,
    }


def test_a_table_without_insurance_or_a_hole_card_has_no_such_items():
    template = game_named("blackjack").practical_sheet({"insurance": False, "hole_card": "enhc"})
    codes = {p.code for p in template.procedures} | {t.code for t in template.timed}
    assert not codes & {"insurance", "peek", "largest_insurance"}


def test_casinos_sheet_has_the_deal_and_the_last_take():
    template = game_named("casino").practical_sheet({})
    codes = {p.code for p in template.procedures}
    assert {"deal", "last_take"} <= codes


def test_a_game_that_says_nothing_has_the_rubric_alone():
    template = game_named("dealer-draws").practical_sheet({})
    assert template.procedures == ()
    assert [r.code for r in template.rubric] == ["hospitality", "technical", "control"]


# The pass rule, table-driven.

RULE = SheetTemplate(
    procedures=(ProcedureItem("peek", "The peek", critical=True), ProcedureItem("tidy", "Tidy")),
    timed=(
        TimedItem("count", "Count down 20 chips", 10, critical=True),
        TimedItem("shoe", "Deal a shoe", 600),
    ),
    rubric=(RubricLine("hosp", "Hospitality", 3), RubricLine("tech", "Technical", 2)),
    pass_percent=Decimal("70"),
)


@pytest.mark.parametrize(
    ("procedures", "timed", "rubric", "passed", "score", "reason"),
    [
        ({"peek": True}, {"count": Decimal("9.9")}, {"hosp": 7, "tech": 7}, True, "70.00", None),
        (
            {"peek": True, "tidy": False},
            {"count": Decimal(5)},
            {"hosp": 10, "tech": 10},
            True,
            "100.00",
            None,
        ),
        (
            {"peek": False},
            {"count": Decimal(5)},
            {"hosp": 10, "tech": 10},
            False,
            "100.00",
            "The peek",
        ),
        (
            {"peek": True},
            {"count": Decimal(10)},
            {"hosp": 10, "tech": 10},
            False,
            "100.00",
            "took 10 s",
        ),
        ({"peek": True}, {"count": None}, {"hosp": 10, "tech": 10}, False, "100.00", "not timed"),
        (
            {"peek": True},
            {"count": Decimal(5), "shoe": Decimal(900)},
            {"hosp": 8, "tech": 8},
            True,
            "80.00",
            None,
        ),
        (
            {"peek": True},
            {"count": Decimal(5)},
            {"hosp": 6, "tech": 8},
            False,
            "68.00",
            "under the pass mark",
        ),
    ],
)
def test_the_pass_rule(procedures, timed, rubric, passed, score, reason):
    outcome = sheet_outcome(RULE, Marks(procedures=procedures, timed=timed, rubric=rubric))
    assert outcome.passed is passed
    assert outcome.score == Decimal(score)
    if reason is None:
        assert outcome.shortfalls == ()
    else:
        assert any(reason in s for s in outcome.shortfalls)


def test_the_weighted_score_counts_each_line_its_weight():
    # (9*3 + 4*2) / (10*3 + 10*2) = 35 / 50
    outcome = sheet_outcome(
        RULE,
        Marks(
            procedures={"peek": True}, timed={"count": Decimal(1)}, rubric={"hosp": 9, "tech": 4}
        ),
    )
    assert outcome.score == Decimal("70.00")
    assert outcome.passed


# Signing a sheet.


def test_a_pit_manager_signs_a_sheet_in_the_ledger(trainee, pit, pit_boss, shoe):
    sheet = evaluate(trainee, shoe, pit_boss)
    assert sheet.passed
    assert sheet.score == Decimal("80.00")
    assert sheet.evaluator_full_name == pit_boss.get_full_name()
    assert sheet.evaluator_rank == "pit_manager"
    assert sheet.evaluator_licence == f"L-{pit_boss.pk:05d}"
    assert sheet.marks["timed"]["count_down"] == "8.4"
    entry = LedgerEntry.objects.get(event=Event.PRACTICAL_SHEET_SIGNED)
    assert entry.subject_id == str(sheet.pk)
    assert entry.payload["evaluator_rank"] == "pit_manager"
    assert entry.payload["passed"] is True
    assert ledger_verify().ok


def test_a_sheet_for_a_trainee_not_in_ones_class_is_refused(trainee, pit, shoe):
    error = refused(lambda: evaluate(trainee, shoe, pit["other_boss"]))
    assert error.status == 403
    assert "of the trainee's class" in error.message


def test_a_signer_below_the_rank_is_refused_with_the_reason(trainee, pit, shoe):
    boss = UserFactory(username="bea", roles=["pit_boss"], signer=Rank.PIT_BOSS)
    pit["mine"].instructors.add(boss)
    error = refused(lambda: evaluate(trainee, shoe, boss))
    assert "a practical evaluation sheet needs a pit manager or higher; you are a pit boss" in (
        error.message
    )


def test_a_signer_without_a_licence_number_is_refused(trainee, pit, shoe):
    boss = UserFactory(username="lee", roles=["pit_boss"], signer__licence="")
    pit["mine"].instructors.add(boss)
    assert "licence or employee number" in refused(lambda: evaluate(trainee, shoe, boss)).message


def test_nobody_evaluates_themselves(pit, pit_boss, shoe):
    pit["mine"].trainees.add(pit_boss)
    error = refused(lambda: evaluate(pit_boss, shoe, pit_boss))
    assert error.status == 403


def test_a_wrong_password_signs_nothing(trainee, pit, pit_boss, shoe):
    error = refused(lambda: evaluate(trainee, shoe, pit_boss, password="wrong"))
    assert error.field == "password"


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"rubric": {"hospitality": "11"}}, "rubric", "score it 1 to 10"),
        ({"rubric": {"hospitality": ""}}, "rubric", "score it 1 to 10"),
        ({"timed": {"count_down": "fast"}}, "timed", "not a number of seconds"),
        ({"timed": {"count_down": "-1"}}, "timed", "0 to 3600"),
        ({"procedures": {"juggling": True}}, "procedures", "no such item: juggling"),
    ],
)
def test_bad_marks_are_refused_at_their_part(trainee, pit, pit_boss, shoe, change, field, words):
    marks = good_marks(shoe)
    for part, values in change.items():
        marks[part] = {**marks[part], **values}
    error = refused(lambda: evaluate(trainee, shoe, pit_boss, marks=marks))
    assert error.field == field
    assert words in error.message


def test_a_signed_sheet_is_locked_and_corrected_by_a_new_signed_row(trainee, pit, pit_boss, shoe):
    first = evaluate(trainee, shoe, pit_boss)
    first.comments = "edited"
    with pytest.raises(ValidationError):
        first.save()
    with pytest.raises(ValidationError):
        first.delete()
    marks = good_marks(shoe)
    marks["procedures"]["peek"] = False
    correction = evaluate(trainee, shoe, pit_boss, marks=marks, corrects=first)
    assert correction.corrects == first
    assert not correction.passed
    assert PracticalSheet.objects.get(pk=first.pk).comments == "Calm, clean hands."
    error = refused(lambda: evaluate(trainee, shoe, pit_boss, corrects=first))
    assert "already corrected" in error.message


# At sign-off.


def test_a_certification_needs_a_passed_sheet_at_that_table(trainee, pit, pit_boss, shoe):
    sitting = sit(trainee, table_test("casino-shoe"))
    with pytest.raises(ProductError) as caught:
        sign(trainee, sitting, pit_boss, shoe)
    assert "no practical evaluation sheet is signed for this table" in caught.value.message
    marks = good_marks(shoe)
    marks["rubric"] = dict.fromkeys(marks["rubric"], "2")
    evaluate(trainee, shoe, pit_boss, marks=marks)
    with pytest.raises(ProductError) as caught:
        sign(trainee, sitting, pit_boss, shoe)
    assert "was not passed" in caught.value.message
    assert not Certification.objects.exists()
    evaluate(trainee, shoe, pit_boss)
    assert sign(trainee, sitting, pit_boss, shoe).pk


def test_a_tampered_sheet_is_refused_at_sign_off(trainee, pit, pit_boss, shoe):
    sitting = sit(trainee, table_test("casino-shoe"))
    marks = good_marks(shoe)
    marks["procedures"]["peek"] = False
    sheet = evaluate(trainee, shoe, pit_boss, marks=marks)
    raw("UPDATE audit_practicalsheet SET passed = %s WHERE id = %s", [True, sheet.pk])
    with pytest.raises(ProductError) as caught:
        sign(trainee, sitting, pit_boss, shoe)
    assert "differ from what the audit ledger recorded" in caught.value.message
    assert not Certification.objects.exists()


def test_a_table_whose_sheet_says_no_practical_needs_none(
    trainee, pit, pit_boss, shoe, monkeypatch
):
    from trainer.games.blackjack import BLACKJACK

    monkeypatch.setattr(
        BLACKJACK, "practical_sheet", lambda parameters: SheetTemplate(practical_required=False)
    )
    sitting = sit(trainee, table_test("casino-shoe"))
    assert sign(trainee, sitting, pit_boss, shoe).pk


# Pages and the record.


def test_the_sheet_page_signs_and_lists_the_sheet(trainee, pit, pit_boss, shoe):
    client = client_for(pit_boss)
    url = reverse("pit:trainee_practical", args=[trainee.pk])
    page = client.get(url, {"table": "casino-shoe"}).content.decode()
    assert "Count down 20 chips: under 10 s" in page
    assert "data-stopwatch" in page
    template = sheet_template(shoe)
    form = {"table": "casino-shoe", "password": PASSWORD, "comments": "Good."}
    form |= {f"proc-{p.code}": "on" for p in template.procedures}
    form |= {f"time-{t.code}": "7.5" for t in template.timed}
    form |= {f"rubric-{r.code}": "9" for r in template.rubric}
    done = client.post(url, form)
    assert done.status_code == 302
    listed = client.get(done["Location"]).content.decode()
    assert "passed" in listed
    assert f"licence L-{pit_boss.pk:05d}" in listed


def test_the_sheet_page_shows_a_refusal_below_the_rank(trainee, pit, shoe):
    boss = UserFactory(username="bea", roles=["pit_boss"], signer=Rank.PIT_BOSS)
    pit["mine"].instructors.add(boss)
    client = client_for(boss)
    url = reverse("pit:trainee_practical", args=[trainee.pk])
    response = client.post(url, {"table": "casino-shoe", "password": PASSWORD})
    assert response.status_code == 403
    assert "you are a pit boss" in response.content.decode()
    assert not PracticalSheet.objects.exists()


@needs_pdftotext
def test_the_training_record_lists_the_sheets(trainee, pit, pit_boss, shoe, tmp_path):
    from audit.services.training_record import training_record_pdf

    evaluate(trainee, shoe, pit_boss)
    text = " ".join(pdf_text(training_record_pdf(trainee=trainee, user=pit_boss), tmp_path).split())
    assert "Practical evaluations" in text
    assert "passed, 80.00 %" in text
    assert f"licence L-{pit_boss.pk:05d}" in text


def test_the_sign_off_page_says_the_practical_test_is_missing_before_signing(
    trainee, pit, pit_boss, shoe
):
    sit(trainee, table_test("casino-shoe"))
    client = client_for(pit_boss)
    url = reverse("pit:trainee_sign_off", args=[trainee.pk])
    page = client.get(url).content.decode()
    assert "The practical test: no practical evaluation sheet is signed for this table" in page
    evaluate(trainee, shoe, pit_boss)
    assert "practical-warning" not in client.get(url).content.decode()


def test_the_certification_tab_says_a_sitting_waits_on_the_practical_test(
    trainee, pit, pit_boss, shoe
):
    attempt = sit(trainee, table_test("casino-shoe"))
    client = client_for(pit_boss)
    url = reverse("pit:trainee_certification", args=[trainee.pk])
    page = " ".join(client.get(url).content.decode().split())
    row = page.split(f'data-attempt="{attempt.pk}"')[1].split("</tr>")[0]
    assert "<strong>Not yet</strong>" in row
    assert "no practical evaluation sheet is signed for this table" in row
    practical = reverse("pit:trainee_practical", args=[trainee.pk]) + "?table=casino-shoe"
    assert f'href="{practical}"' in row
    evaluate(trainee, shoe, pit_boss)
    page = " ".join(client.get(url).content.decode().split())
    row = page.split(f'data-attempt="{attempt.pk}"')[1].split("</tr>")[0]
    assert "<strong>Yes</strong>" in row
    assert "practical" not in row


def test_the_dashboard_says_a_passed_sitting_waits_on_the_practical_test(
    trainee, pit, pit_boss, shoe
):
    sit(trainee, table_test("casino-shoe"))
    client = client_for(pit_boss)
    practical = reverse("pit:trainee_practical", args=[trainee.pk]) + "?table=casino-shoe"
    page = " ".join(client.get(reverse("pit:dashboard")).content.decode().split())
    assert "passed, not signed: the practical test is missing" in page
    assert f'href="{practical}"' in page
    evaluate(trainee, shoe, pit_boss)
    page = " ".join(client.get(reverse("pit:dashboard")).content.decode().split())
    assert "passed, not signed" in page
    assert "the practical test is missing" not in page
    assert f'href="{practical}"' not in page
