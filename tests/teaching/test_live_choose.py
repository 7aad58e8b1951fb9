"""Opening a class session from scenarios picked on /teach/live/: the library filtered,
the order kept as numbered, one table only, refusals in words with nothing written, the
list's query count pinned."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from core.errors import ProductError
from teaching.services.live_sessions import live_session_open
from tests.factories import profile_version
from tests.graded import client_for
from tests.trainer.factories import DrillFactory, ScenarioFactory, natural_document
from trainer.models import Drill, LiveSession

pytestmark = pytest.mark.django_db

URL = reverse("teach:live-index")


def _pick(training_class, picked, **extra):
    """The scenarios form's post: each (scenario, order number) ticked."""
    data = {"source": "scenarios", "pick-training_class": training_class.pk, **extra}
    data["scenario"] = [s.pk for s, _ in picked]
    for scenario, order in picked:
        data[f"order-{scenario.pk}"] = str(order)
    return data


def _nothing_written():
    assert not LiveSession.objects.exists()
    assert not Drill.objects.exists()


def test_the_library_is_listed_and_filtered_by_table_and_skill(pit, pit_boss):
    ScenarioFactory(title="Shoe natural", document=natural_document("a"), skills=["natural-3to2"])
    ScenarioFactory(title="Shoe push", skills=["push"])
    ScenarioFactory(
        title="Deep double round", profile_version=profile_version("casino-double-deck")
    )
    page = client_for(pit_boss)
    html = page.get(URL).content.decode()
    assert "Or start from scenarios you choose" in html
    # The library is listed a table at a time: none until one is chosen.
    assert "Choose a table above" in html
    assert not any(t in html for t in ("Shoe natural", "Shoe push", "Deep double round"))
    shoe = profile_version("casino-shoe").profile
    html = page.get(URL, {"profile": shoe.pk}).content.decode()
    assert "Shoe natural" in html
    assert "Shoe push" in html
    assert "Deep double round" not in html
    table = profile_version("casino-double-deck").profile
    html = page.get(URL, {"profile": table.pk}).content.decode()
    assert "Deep double round" in html
    assert "Shoe natural" not in html
    html = page.get(URL, {"profile": shoe.pk, "skill": "natural-3to2"}).content.decode()
    assert "Shoe natural" in html
    assert "Shoe push" not in html


def test_the_picked_scenarios_open_a_session_in_the_order_numbered(pit, pit_boss):
    a = ScenarioFactory(title="First listed", document=natural_document("a"))
    b = ScenarioFactory(title="Second listed")
    c = ScenarioFactory(title="Third listed", document=natural_document("c"))
    page = client_for(pit_boss)
    opened = page.post(URL, _pick(pit["mine"], [(a, 3), (b, 1), (c, 2)], **{"pick-title": "Tue"}))
    session = LiveSession.objects.get()
    assert opened["Location"] == reverse("teach:live", args=[session.pk])
    assert [r["scenario"] for r in session.rounds] == [b.pk, c.pk, a.pk]
    assert session.drill.title == "Tue"
    assert session.training_class == pit["mine"]


def test_none_ticked_is_refused_in_words(pit, pit_boss):
    ScenarioFactory(title="Left alone")
    refused = client_for(pit_boss).post(URL, _pick(pit["mine"], []))
    assert refused.status_code == 400
    assert "tick at least one scenario" in refused.content.decode()
    _nothing_written()


def test_two_tables_are_refused_naming_them(pit, pit_boss):
    shoe = ScenarioFactory(title="Shoe round")
    double = ScenarioFactory(
        title="Double round", profile_version=profile_version("casino-double-deck")
    )
    refused = client_for(pit_boss).post(URL, _pick(pit["mine"], [(shoe, 1), (double, 2)]))
    html = refused.content.decode()
    assert refused.status_code == 400
    assert "played at one table" in html
    assert profile_version("casino-double-deck").profile.title in html
    assert profile_version("casino-shoe").profile.title in html
    # What was ticked stays ticked, numbered as typed.
    assert f'id="pick-{double.pk}" checked' in html
    _nothing_written()


def test_a_refusal_after_the_drill_is_made_writes_nothing(pit, pit_boss):
    """The class already has a session running: the chosen rounds' drill goes too."""
    running = live_session_open(
        user=pit_boss,
        training_class=pit["mine"],
        drill=DrillFactory(documents=[natural_document()]),
    )
    drills = Drill.objects.count()
    one = ScenarioFactory(title="One more")
    refused = client_for(pit_boss).post(URL, _pick(pit["mine"], [(one, 1)]))
    assert refused.status_code == 409
    assert "already has a live session running" in refused.content.decode()
    assert list(LiveSession.objects.all()) == [running]
    assert Drill.objects.count() == drills


def test_another_class_instructor_is_refused(pit, pit_boss, other_boss, trainee):
    one = ScenarioFactory(title="Theirs to deal")
    forged = client_for(other_boss).post(URL, _pick(pit["mine"], [(one, 1)]))
    assert forged.status_code == 400
    assert "the one sent is not offered" in forged.content.decode()
    assert client_for(trainee).post(URL, _pick(pit["mine"], [(one, 1)])).status_code == 403
    _nothing_written()
    with pytest.raises(ProductError) as refused:
        live_session_open(user=other_boss, training_class=pit["mine"], scenarios=[one])
    assert refused.value.status == 403
    _nothing_written()


def test_a_superseded_pick_is_refused(pit, pit_boss):
    old = ScenarioFactory(title="Old revision", is_active=False)
    refused = client_for(pit_boss).post(URL, _pick(pit["mine"], [(old, 1)]))
    assert refused.status_code == 400
    assert "no longer in the library" in refused.content.decode()
    _nothing_written()


def _queries(page):
    shoe = profile_version("casino-shoe").profile.pk
    with CaptureQueriesContext(connection) as seen:
        assert page.get(URL, {"profile": shoe}).status_code == 200
    return len(seen)


def test_the_list_shown_costs_the_same_queries_however_long(pit, pit_boss):
    page = client_for(pit_boss)
    ScenarioFactory(skills=["natural-3to2"])
    few = _queries(page)
    for n in range(12):
        ScenarioFactory(
            document=natural_document(f"n{n}"),
            profile_version=profile_version("casino-double-deck" if n % 2 else "casino-shoe"),
        )
    assert _queries(page) == few
    assert few <= 12


def test_the_service_refuses_two_tables_named_by_slug_too(pit, pit_boss):
    shoe = ScenarioFactory(slug="shoe-round")
    ScenarioFactory(slug="double-round", profile_version=profile_version("casino-double-deck"))
    with pytest.raises(ProductError) as mixed:
        live_session_open(
            user=pit_boss, training_class=pit["mine"], scenarios=[shoe, "double-round"]
        )
    assert mixed.value.field == "scenarios"
    assert "one table" in mixed.value.message
    with pytest.raises(ProductError) as empty:
        live_session_open(user=pit_boss, training_class=pit["mine"], scenarios=[])
    assert "at least one scenario" in empty.value.message
    _nothing_written()
    # Two of one table, one named by its slug: dealt in the order given.
    session = live_session_open(
        user=pit_boss, training_class=pit["mine"], scenarios=["shoe-round", shoe]
    )
    assert [r["scenario"] for r in session.rounds] == [shoe.pk, shoe.pk]
