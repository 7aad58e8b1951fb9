"""Jurisdictions as data (audit/jurisdictions/*.json, audit.authority) and the compliance
self-check against the one in force (audit.selectors.self_check)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from audit.authority import Rank, jurisdiction_in_force, jurisdiction_keys, jurisdiction_load
from audit.certification import CertificationRule
from audit.selectors.self_check import self_check
from tests.audit.factories import table_test
from tests.graded import client_for
from trainer.games import game_named


def test_the_four_jurisdictions_and_the_house_standard_ship_as_data():
    assert set(jurisdiction_keys()) >= {
        "house",
        "maryland",
        "pennsylvania",
        "new-jersey",
        "nevada",
    }


@pytest.mark.parametrize("key", jurisdiction_keys())
def test_every_jurisdiction_file_reads_and_names_real_skills(key):
    j = jurisdiction_load(key)
    assert j.key == key
    assert j.retention_years >= 1
    assert j.validity_months >= 1
    assert j.table_test_rank.at_least(Rank.PIT_BOSS)
    assert j.topics
    for topic in j.topics:
        known = set(game_named(topic.game).skills)
        assert set(topic.skills) <= known, f"{key}: {topic.words} names unknown skills"


def test_the_regulations_as_the_issue_words_them():
    assert jurisdiction_load("pennsylvania").validity_months == 60  # a course within 5 years
    assert "611a" in jurisdiction_load("pennsylvania").cited
    assert "36.05.03.17" in jurisdiction_load("maryland").cited
    assert jurisdiction_load("maryland").table_test_rank is Rank.PIT_MANAGER
    assert "permanent form" in jurisdiction_load("new-jersey").records
    assert "never initials" in jurisdiction_load("nevada").signature


def test_an_unknown_jurisdiction_is_refused_naming_the_choices():
    with pytest.raises(ValueError, match="the choices are"):
        jurisdiction_load("atlantis")


def test_the_installation_chooses_one_and_its_validity_applies_unless_set(settings):
    assert jurisdiction_in_force().key == "house"
    del settings.SHOESCHOOL_CERT_VALID_MONTHS
    settings.SHOESCHOOL_JURISDICTION = "pennsylvania"
    assert CertificationRule.from_settings().valid_months == 60
    settings.SHOESCHOOL_CERT_VALID_MONTHS = 6
    assert CertificationRule.from_settings().valid_months == 6


def _line(check, topic):
    return next(line for line in check.lines if line.topic.startswith(topic))


def test_the_self_check_says_met_and_not_met(settings, pit_boss):
    settings.SHOESCHOOL_CERT_VALID_MONTHS = 24  # longer than the house's 12
    table_test("casino-shoe")
    check = self_check()
    assert _line(check, "Retention").met
    assert not _line(check, "How long a certification lasts").met
    assert _line(check, "Who signs a certification").met  # the pit boss, a pit manager
    assert _line(check, "Topic: Insurance").met
    assert _line(check, "Topic: Insurance").kept.startswith("covered by the table tests of ")
    assert not check.all_met
    settings.SHOESCHOOL_CERT_VALID_MONTHS = 12
    assert _line(self_check(), "How long a certification lasts").met


def test_with_no_signer_on_file_nobody_can_sign(db):
    check = self_check()
    assert not _line(check, "Who signs a certification").met
    assert not _line(check, "Topic: Insurance").met  # no table test yet


def test_the_self_check_page_for_compliance(compliance_officer, pit_boss, settings):
    settings.SHOESCHOOL_JURISDICTION = "maryland"
    page = client_for(compliance_officer).get(reverse("compliance:self_check"))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Self-check against Maryland" in text
    assert "COMAR 36.05.03.17" in text
    assert "Not met" in text  # no table test covers the topics yet
