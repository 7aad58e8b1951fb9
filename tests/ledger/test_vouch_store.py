"""The vouches a verification walk meets are kept on disk (ledger.services.vouch_store) and
must behave as the dict they replace: the newest entry's vouch of a key wins, a key is
handed back once, and what is not taken is what was vouched for and is gone."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.services.vouch_store import HeldVouches, SeenVouches, digest_text

TABLES = ("trainer_decision", "trainer_grade", "audit_review")
keys = st.builds(
    lambda table, value: f"{table}:{value}",
    st.sampled_from(TABLES),
    st.one_of(st.integers(1, 40).map(str), st.sampled_from(["x", "1:2", ""])),
)
digests = st.one_of(st.sampled_from(["a" * 64, "b" * 64, "c" * 64]), st.integers(0, 3))
# (key, digest, sequence) in the walk's order: sequences increase, as the walk reads them.
walks = st.lists(st.tuples(keys, digests), max_size=120)


def _model(walk: list[tuple[str, object]]) -> dict[str, tuple[str, int]]:
    """What the walk's dict held: the last vouch of each key."""
    held: dict[str, tuple[str, int]] = {}
    for sequence, (key, digest) in enumerate(walk, start=1):
        held[key] = (digest_text(digest), sequence)
    return held


@settings(max_examples=150, deadline=None)
@given(walk=walks, taken=st.lists(keys, max_size=60), flush=st.integers(1, 7))
def test_the_store_keeps_what_the_dict_kept(walk, taken, flush) -> None:
    model = _model(walk)
    # Written in batches of every size: a key's vouches in one batch and across two.
    with SeenVouches(flush=flush) as seen:
        for sequence, (key, digest) in enumerate(walk, start=1):
            seen.note(key, digest, sequence)
        for table in (*TABLES, "trainer_attempt"):
            prefix = f"{table}:"
            store = seen.table(table)
            mine = {k: v for k, v in model.items() if k.startswith(prefix)}
            assert len(store) == len(mine)
            assert sorted(store.keys()) == sorted(k[len(prefix) :] for k in mine)
            wanted = [k for k in taken if k.startswith(prefix)]
            got = store.take(wanted)
            assert got == {k: mine[k] for k in wanted if k in mine}
            # Taken once: a second take finds nothing, and they are not left.
            assert store.take(wanted) == {}
            left = dict(store.left())
            assert left == {k: v for k, v in mine.items() if k not in got}
            assert len(store) == len(left)


def test_a_later_entry_replaces_the_vouch_an_earlier_one_made() -> None:
    with SeenVouches() as seen:
        seen.note("trainer_decision:7", "old", 3)
        seen.note("trainer_decision:7", "new", 9)
        seen.note("trainer_decision:8", "only", 4)
        table = seen.table("trainer_decision")
        assert table.take(["trainer_decision:7"]) == {"trainer_decision:7": ("new", 9)}
        assert list(table.left()) == [("trainer_decision:8", ("only", 4))]


def test_keys_come_in_the_order_of_their_numbers() -> None:
    with SeenVouches() as seen:
        for number in (10, 9, 100, 2):
            seen.note(f"trainer_run:{number}", "d", number)
        assert list(seen.table("trainer_run").keys()) == ["2", "9", "10", "100"]


def test_a_digest_edited_into_something_else_never_equals_one() -> None:
    assert digest_text("ab" * 32) == "ab" * 32
    for edited in (12, None, ["ab" * 32], {"sha": "ab" * 32}):
        text = digest_text(edited)
        assert text.startswith("not a digest: ")


def test_held_vouches_take_and_leave_as_the_store_does() -> None:
    held = HeldVouches({"t:1": ("a", 1), "t:2": ("b", 2)})
    assert held.take(["t:2", "t:3"]) == {"t:2": ("b", 2)}
    assert list(held.left()) == [("t:1", ("a", 1))]
    assert len(held) == 1


def test_a_table_the_walk_never_met_is_empty() -> None:
    with SeenVouches() as seen:
        table = seen.table("audit_review")
        assert len(table) == 0
        assert table.take(["audit_review:1"]) == {}
        assert list(table.left()) == []
        assert list(table.keys()) == []
