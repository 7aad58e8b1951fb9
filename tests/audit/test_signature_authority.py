"""Signature authority (audit.authority, audit.services.authority): a signer's rank and
licence number, recorded by an administrator and vouched by the ledger; a certification
or a withdrawal refused below the jurisdiction's rank or without a licence number, with the
reason; the signature's rank and licence number on the signed row and in the ledger; the
signature card."""

from __future__ import annotations

import pytest
from django.urls import reverse

from audit.authority import (
    Authority,
    Rank,
    SignedForm,
    authority_refusal,
    card_name,
    jurisdiction_load,
)
from audit.models import Certification, SignerProfile
from audit.services.authority import signer_profile_set
from audit.services.reviews import certification_withdraw
from core.errors import ProductError
from ledger.events import Event
from ledger.models import LedgerEntry
from ledger.services.verify import ledger_verify
from tests.audit.factories import table_test
from tests.audit.test_certification import refusal, sign, sit
from tests.factories import PASSWORD, UserFactory
from tests.graded import client_for, signing_request
from tests.ledger.test_vouched_rows import raw
from trainer.models import RuleProfile


@pytest.fixture
def shoe(db):
    return RuleProfile.objects.get(name="casino-shoe")


@pytest.fixture
def sitting(trainee, pit):
    return sit(trainee, table_test("casino-shoe"))


@pytest.fixture
def boss_below(pit, trainee):
    """A pit boss of tina's class whose rank is pit boss: below a table test's."""
    boss = UserFactory(username="bea", roles=["pit_boss"], signer=Rank.PIT_BOSS)
    pit["mine"].instructors.add(boss)
    return boss


# The rule, plain.


@pytest.mark.parametrize(
    ("rank", "licence", "form", "refused"),
    [
        (Rank.PIT_MANAGER, "PM-1", SignedForm.CERTIFICATION, None),
        (Rank.SHIFT_MANAGER, "SM-1", SignedForm.CERTIFICATION, None),
        (Rank.ADMINISTRATOR, "A-1", SignedForm.WITHDRAWAL, None),
        (
            Rank.PIT_BOSS,
            "PB-1",
            SignedForm.CERTIFICATION,
            "a certification needs a pit manager or higher; you are a pit boss",
        ),
        (
            Rank.DEALER,
            "D-1",
            SignedForm.PRACTICAL_SHEET,
            "a practical evaluation sheet needs a pit manager or higher; you are a dealer",
        ),
        (Rank.PIT_MANAGER, "", SignedForm.CERTIFICATION, "none is on file for you"),
        (None, "", SignedForm.WITHDRAWAL, "you have no rank on file"),
    ],
)
def test_the_house_rule_says_who_signs_what(rank, licence, form, refused):
    found = authority_refusal(
        form=form,
        authority=Authority(rank=rank, licence_number=licence),
        jurisdiction=jurisdiction_load("house"),
    )
    if refused is None:
        assert found is None
    else:
        assert found is not None
        assert refused in found


def test_a_jurisdiction_sets_the_rank_of_a_practical_sheet():
    # New Jersey's data: an evaluation sheet by a pit boss, a certification by a pit manager.
    nj = jurisdiction_load("new-jersey")
    boss = Authority(rank=Rank.PIT_BOSS, licence_number="PB-1")
    assert (
        authority_refusal(form=SignedForm.PRACTICAL_SHEET, authority=boss, jurisdiction=nj) is None
    )
    assert "pit manager" in authority_refusal(
        form=SignedForm.CERTIFICATION, authority=boss, jurisdiction=nj
    )


def test_a_signature_card_names_first_initial_and_last_name():
    assert card_name("Pat", "Boss") == "P. Boss"
    assert card_name("", "Boss") == "Boss"


# Recording an authority.


def test_an_administrator_records_a_rank_and_licence_in_the_ledger(admin_user, pit_boss):
    profile = signer_profile_set(
        actor=admin_user, person=pit_boss, rank="shift_manager", licence_number=" SM-204 "
    )
    assert (profile.rank, profile.licence_number, profile.set_by) == (
        "shift_manager",
        "SM-204",
        admin_user,
    )
    entry = LedgerEntry.objects.get(event=Event.SIGNER_AUTHORITY_SET)
    assert entry.subject_type == "user"
    assert entry.subject_id == str(pit_boss.pk)
    assert entry.payload["rank"] == "shift_manager"
    assert entry.payload["from"]["rank"] == "pit_manager"  # the factory's
    assert ledger_verify().ok


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"rank": "floorperson"}, "rank", "is not a rank"),
        ({"licence_number": "PM<script>"}, "licence_number", "letters, digits"),
        ({"rank": "administrator"}, "rank", "does not hold the administrator role"),
    ],
)
def test_a_bad_authority_is_refused_at_its_field(admin_user, pit_boss, changes, field, words):
    arguments = {"rank": "pit_manager", "licence_number": "PM-9", **changes}
    before = SignerProfile.objects.count()
    with pytest.raises(ProductError) as caught:
        signer_profile_set(actor=admin_user, person=pit_boss, **arguments)
    assert caught.value.field == field
    assert words in caught.value.message
    assert SignerProfile.objects.count() == before


def test_only_another_administrator_records_an_authority(admin_user, pit_boss):
    with pytest.raises(ProductError) as caught:
        signer_profile_set(actor=pit_boss, person=pit_boss, rank="pit_manager", licence_number="")
    assert caught.value.status == 403
    with pytest.raises(ProductError, match="nobody records their own"):
        signer_profile_set(
            actor=admin_user, person=admin_user, rank="administrator", licence_number="A-1"
        )


# Signing with it.


def test_a_certification_states_the_signers_rank_and_licence(trainee, pit_boss, shoe, sitting):
    certification = sign(trainee, sitting, pit_boss, shoe)
    assert certification.signer_rank == "pit_manager"
    assert certification.signer_licence == f"L-{pit_boss.pk:05d}"
    entry = LedgerEntry.objects.get(event=Event.CERTIFICATION_SIGNED)
    assert entry.payload["signer_rank"] == "pit_manager"
    assert entry.payload["signer_licence"] == certification.signer_licence
    assert entry.payload["signer_full_name"] == pit_boss.get_full_name()
    assert ledger_verify().ok


def test_a_pit_boss_below_the_rank_is_refused_with_the_reason(trainee, boss_below, shoe, sitting):
    error = refusal(lambda: sign(trainee, sitting, boss_below, shoe))
    assert error.status == 403
    assert error.field == "signer"
    assert "a certification needs a pit manager or higher; you are a pit boss" in error.message


def test_a_signer_without_a_licence_number_is_refused(trainee, pit, shoe, sitting):
    boss = UserFactory(username="lee", roles=["pit_boss"], signer__licence="")
    pit["mine"].instructors.add(boss)
    error = refusal(lambda: sign(trainee, sitting, boss, shoe))
    assert "licence or employee number" in error.message


def test_a_signer_with_no_authority_on_file_is_refused(trainee, pit, shoe, sitting):
    boss = UserFactory(username="nia", roles=["pit_boss"], signer=False)
    pit["mine"].instructors.add(boss)
    error = refusal(lambda: sign(trainee, sitting, boss, shoe))
    assert "no rank on file" in error.message


def test_the_class_check_still_comes_first(trainee, pit, shoe, sitting):
    # A pit manager of another class is refused as before: their rank gives no class.
    error = refusal(lambda: sign(trainee, sitting, pit["other_boss"], shoe))
    assert error.status == 403
    assert "of the trainee's class" in error.message


def test_a_rank_raised_behind_the_application_is_refused(trainee, boss_below, shoe, sitting):
    row = SignerProfile.objects.get(person=boss_below)
    raw("UPDATE audit_signerprofile SET rank = 'shift_manager' WHERE id = %s", [row.pk])
    error = refusal(lambda: sign(trainee, sitting, boss_below, shoe))
    assert "differ from what the audit ledger recorded" in error.message


def test_a_jurisdiction_with_a_lower_rank_lets_a_pit_boss_sign_a_sheet_not_a_certification(
    settings, trainee, boss_below, shoe, sitting
):
    settings.SHOESCHOOL_JURISDICTION = "nevada"
    error = refusal(lambda: sign(trainee, sitting, boss_below, shoe))
    assert "pit manager or higher" in error.message


def test_a_withdrawal_needs_the_rank_too(trainee, pit_boss, boss_below, shoe, sitting):
    certification = sign(trainee, sitting, pit_boss, shoe)
    with pytest.raises(ProductError) as caught:
        certification_withdraw(
            certification=certification,
            signer=boss_below,
            password=PASSWORD,
            statement="Saw a misdeal.",
            request=signing_request(),
        )
    assert "a withdrawal of a certification needs a pit manager or higher" in (caught.value.message)
    withdrawal = certification_withdraw(
        certification=certification,
        signer=pit_boss,
        password=PASSWORD,
        statement="Saw a misdeal.",
        request=signing_request(),
    )
    assert withdrawal.signer_rank == "pit_manager"
    assert withdrawal.signer_licence


# Pages.


def test_the_sign_off_page_says_the_reason_a_pit_boss_below_the_rank_is_refused(
    trainee, boss_below, sitting
):
    client = client_for(boss_below)
    page = client.get(reverse("pit:trainee_sign_off", args=[trainee.pk])).content.decode()
    assert "You cannot sign this: a certification needs a pit manager or higher" in page
    response = client.post(
        reverse("pit:trainee_certify", args=[trainee.pk]),
        {
            "attempt": sitting.pk,
            "profile": "casino-shoe",
            "statement": "Dealt well.",
            "password": PASSWORD,
        },
    )
    assert response.status_code == 403
    assert "you are a pit boss" in response.content.decode()
    assert not Certification.objects.exists()


def test_the_signature_card_lists_what_its_holder_may_sign(client, pit_boss, boss_below):
    client.force_login(boss_below)
    page = client.get(reverse("pit:signer_card", args=[pit_boss.pk])).content.decode()
    assert f"{pit_boss.first_name[0]}. {pit_boss.last_name}" in page
    assert f"L-{pit_boss.pk:05d}" in page
    assert "Pit manager" in page
    assert page.count("<strong>Yes</strong>") == 3
    assert "Record the rank" not in page  # only an administrator records it
    mine = client.get(reverse("pit:signer_card", args=[boss_below.pk])).content.decode()
    assert mine.count("<strong>Yes</strong>") == 0


def test_an_administrator_records_an_authority_on_the_card(client, admin_user, boss_below):
    client.force_login(admin_user)
    url = reverse("pit:signer_authority_set", args=[boss_below.pk])
    refused = client.post(url, {"rank": "pit_manager", "licence_number": "<b>"})
    assert refused.status_code == 400
    assert "letters, digits" in refused.content.decode()
    done = client.post(url, {"rank": "pit_manager", "licence_number": "PM-77"})
    assert done.status_code == 302
    assert SignerProfile.objects.filter(person=boss_below).first().licence_number == "PM-77"
    listing = client.get(reverse("pit:signers")).content.decode()
    assert "PM-77" in listing


def test_the_demo_history_records_the_demo_signers_once(db):
    from audit.management.commands.setup_demo_history import Command as DemoHistory

    UserFactory(username="admin", roles=["admin"], is_superuser=True, signer=False)
    boss = UserFactory(username="pitboss", roles=["pit_boss"], signer=False)
    other = UserFactory(username="pitboss2", roles=["pit_boss"], signer=False)
    DemoHistory()._signers()
    assert SignerProfile.objects.get(person=boss).rank == Rank.PIT_MANAGER
    assert SignerProfile.objects.get(person=boss).licence_number == "PM-10417"
    assert SignerProfile.objects.get(person=other).rank == Rank.PIT_BOSS
    assert LedgerEntry.objects.filter(event=Event.SIGNER_AUTHORITY_SET).count() == 2
    DemoHistory()._signers()
    assert SignerProfile.objects.count() == 2
