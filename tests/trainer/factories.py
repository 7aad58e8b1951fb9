"""Factories for scenarios, drills, classes and assignments (shared by the trainer tests).

The documents are small, valid ``blackjack-scenario/1`` rounds whose answer keys are
known, so tests can answer them right or wrong on purpose.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, cast

import factory

from tests.factories import profile_version
from trainer.models import (
    Assignment,
    Drill,
    DrillKind,
    DrillScenario,
    Mode,
    Scenario,
    TrainingClass,
)


def simple_document(doc_id: str = "two-boxes-push-and-win") -> dict[str, Any]:
    """casino-shoe, dealer 7d Kd stands on 17; box 2 pushes 25, box 1 wins 10. Questions:
    1 dealer_play stand, 2 settle p2 push, 3 settle p1 pay 10.00, 4 reshuffle continue."""
    return {
        "format": "blackjack-scenario/1",
        "id": doc_id,
        "title": "Two boxes against a dealer 17",
        "rules": "casino-shoe",
        "boxes": [
            {"box": 1, "stakes": [{"player": "p1", "amount": "10"}], "actions": ["stand"]},
            {"box": 2, "stakes": [{"player": "p2", "amount": "25"}], "actions": ["hit", "stand"]},
        ],
        "shoe": ["Ts", "9h", "7d", "8c", "3h", "Kd", "5s", "4c", "Qh", "9d"],
        "cut_card_at": 60,
    }


def insurance_document(doc_id: str = "insurance-dealer-busts") -> dict[str, Any]:
    """casino-shoe, dealer Ah 6d hits soft 17 and busts; p1 insured 5. Questions:
    1 offer_insurance offer, 2 peek (no blackjack), 3 settle_insurance take 5.00,
    4 dealer_play hit, 5 dealer_play hit, 6 settle p1 pay 10.00, 7 reshuffle reshuffle."""
    return {
        "format": "blackjack-scenario/1",
        "id": doc_id,
        "title": "Insurance against an ace, dealer busts",
        "rules": "casino-shoe",
        "boxes": [
            {
                "box": 1,
                "stakes": [{"player": "p1", "amount": "10"}],
                "insurance": {"p1": "5"},
                "actions": ["stand"],
            }
        ],
        "shoe": ["Ts", "Ah", "9c", "6d", "5s", "Kd"],
        "cut_card_at": 4,
    }


def natural_document(doc_id: str = "natural-pays-3-to-2") -> dict[str, Any]:
    """casino-shoe, p1's natural on 25 against a dealer 17: settle pay 37.50, then continue."""
    return {
        "format": "blackjack-scenario/1",
        "id": doc_id,
        "title": "A natural at 3 to 2",
        "rules": "casino-shoe",
        "boxes": [{"box": 1, "stakes": [{"player": "p1", "amount": "25"}], "actions": []}],
        "shoe": ["As", "9h", "Kd", "8c", "5s"],
        "cut_card_at": 60,
    }


class ScenarioFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Scenario

    document = factory.LazyFunction(simple_document)
    slug = factory.Sequence(lambda n: f"scenario-{n}")
    title = factory.LazyAttribute(lambda o: o.document.get("title", o.slug))
    skills = factory.LazyFunction(list)
    profile_version = factory.LazyAttribute(lambda o: profile_version(o.document["rules"]))


class DrillFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Drill
        skip_postgeneration_save = True

    title = factory.Sequence(lambda n: f"Drill {n}")
    kind = DrillKind.FIXED
    time_limit_seconds = 60
    time_box_seconds = 300
    pass_mark = Decimal("80.00")

    @factory.post_generation
    def documents(self, create: bool, extracted: list[dict[str, Any]] | None, **kwargs: Any):
        """DrillFactory(documents=[doc, ...]) makes one scenario per document, in order."""
        if not create or not extracted:
            return
        for position, document in enumerate(extracted, start=1):
            scenario = cast(Scenario, ScenarioFactory(document=document))
            drill = cast(Drill, self)
            DrillScenario.objects.create(drill=drill, scenario=scenario, position=position)


class TrainingClassFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TrainingClass
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Class {n}")

    @factory.post_generation
    def trainees(self, create: bool, extracted: list[Any] | None, **kwargs: Any):
        if create and extracted:
            self.trainees.add(*extracted)


class AssignmentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Assignment

    drill = factory.SubFactory(DrillFactory)
    mode = Mode.PRACTICE
    trainee = None
    training_class = None


def chip_document(doc_id: str = "natural-paid-in-chips") -> dict[str, Any]:
    """The natural above paid in chips, then the player colours up a pile of six 5s
    and six 1s: question 1 pays 37.50 in 25 + 5 + 5 + 2.50, question 2 colours 36.00 up into
    25 + 5 + 5 + 1, question 3 continues."""
    return {
        **natural_document(doc_id),
        "title": "A natural paid in chips, then a colour-up",
        "chips": {
            "pay": [{"box": 1, "player": "p1"}],
            "colour_up": [{"box": 1, "player": "p1", "pile": ["5"] * 6 + ["1"] * 6}],
        },
    }


def change_document(doc_id: str = "cash-changed") -> dict[str, Any]:
    """80 in cash on box 1 to change (question 1: 25 + 25 + 25 + 5), then the round."""
    return {
        **natural_document(doc_id),
        "title": "Change 80",
        "chips": {"change": [{"box": 1, "player": "p1", "cash": "80"}]},
    }
