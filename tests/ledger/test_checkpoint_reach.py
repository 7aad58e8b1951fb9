"""The checkpoint file out of the insider's reach (#23, finding 7): production refuses a file in
the data folder, the media folder or beside the SQLite database (a system check, ledger.E001);
an emptied, shrunk or missing file is reported by verification, from the count of lines kept
in the database and each line's own number: a failure in production, a warning elsewhere.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ledger.checks import anchor_file_placement
from ledger.events import Event, Subject
from ledger.services.anchors import checkpoint_lines_written, ledger_checkpoint_write
from ledger.services.append import PendingEntry, ledger_append_many
from ledger.services.verify import ledger_verify
from tests.test_settings import PRODUCTION, run_manage


def append(count: int) -> None:
    ledger_append_many(
        entries=[
            PendingEntry(Event.DECISION_RECORDED, Subject.DECISION, str(n), {"n": n})
            for n in range(count)
        ]
    )


def verify(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("verify_audit_log", *args, stdout=out)
    except CommandError as error:
        return error.returncode, out.getvalue() + str(error)
    return 0, out.getvalue()


@pytest.fixture
def three_lines(db, settings) -> Path:
    for _ in range(3):
        append(2)
        ledger_checkpoint_write()
    return Path(settings.SHOESCHOOL_LEDGER_ANCHOR_FILE)


@pytest.fixture
def production(settings):
    settings.SHOESCHOOL_LEDGER_ANCHOR_STRICT = True


def test_each_line_states_its_number_and_the_database_counts_them(three_lines):
    numbers = [json.loads(line)["n"] for line in three_lines.read_text().splitlines()]
    assert numbers == [1, 2, 3]
    assert checkpoint_lines_written() == 3
    assert ledger_verify().ok


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (lambda path: path.write_text(""), "holds 0 lines, but 3 were written to it"),
        (
            lambda path: path.write_text("".join(path.read_text().splitlines(True)[1:])),
            "holds 2 lines, but 3 were written to it",
        ),
        (lambda path: path.unlink(), "is missing, but 3 lines were written to it"),
    ],
    ids=["emptied", "shrunk", "missing"],
)
def test_a_damaged_checkpoint_file_fails_verification_in_production(
    three_lines, production, damage, said
):
    damage(three_lines)
    status, output = verify()
    assert status == 1
    assert said in output
    assert not ledger_verify().ok


def test_an_emptied_checkpoint_file_is_a_warning_in_development(three_lines):
    three_lines.write_text("")
    status, output = verify()
    assert status == 0
    assert "warning: the checkpoint file" in output
    assert "holds 0 lines, but 3 were written to it" in output
    assert ledger_verify().ok


def test_a_file_whose_first_lines_were_cut_is_told_by_its_numbers_alone(three_lines, production):
    # Even with the database's count set back as well, the last line's number tells.
    from ledger.models import CheckpointTally

    CheckpointTally.objects.update(lines=1)
    three_lines.write_text(three_lines.read_text().splitlines(True)[-1])
    status, output = verify()
    assert status == 1
    assert "its lines are numbered up to 3: lines were removed from it" in output


# Where the file may be.


@pytest.mark.filterwarnings("ignore:Overriding setting DATABASES")
@pytest.mark.parametrize("place", ["DATA_DIR", "MEDIA_ROOT", "sqlite", "var"])
def test_production_refuses_a_checkpoint_file_within_the_insiders_reach(settings, tmp_path, place):
    settings.SHOESCHOOL_LEDGER_ANCHOR_STRICT = True
    folder = {
        "DATA_DIR": Path(settings.DATA_DIR),
        "MEDIA_ROOT": Path(settings.MEDIA_ROOT),
        "sqlite": tmp_path / "db",
        "var": Path(settings.BASE_DIR) / "var",
    }[place]
    if place == "sqlite":
        settings.DATABASES = {
            **settings.DATABASES,
            "default": {
                **settings.DATABASES["default"],
                "ENGINE": "django.db.backends.sqlite3",
                "NAME": str(folder / "shoeschool.sqlite3"),
            },
        }
    settings.SHOESCHOOL_LEDGER_ANCHOR_FILE = folder / "anchors" / "ledger-anchors.jsonl"
    errors = anchor_file_placement()
    assert [error.id for error in errors] == ["ledger.E001"]
    assert "whoever can rewrite the database reaches it" in errors[0].msg


def test_a_checkpoint_file_elsewhere_passes_and_development_is_not_refused(settings):
    settings.SHOESCHOOL_LEDGER_ANCHOR_STRICT = True
    settings.SHOESCHOOL_LEDGER_ANCHOR_FILE = Path("/mnt/ledger-worm/ledger-anchors.jsonl")
    assert anchor_file_placement() == []
    settings.SHOESCHOOL_LEDGER_ANCHOR_STRICT = False
    settings.SHOESCHOOL_LEDGER_ANCHOR_FILE = Path(settings.DATA_DIR) / "ledger-anchors.jsonl"
    assert anchor_file_placement() == []


def test_the_deployment_check_shows_the_refusal_of_the_default_place():
    env = {k: v for k, v in PRODUCTION.items() if k != "SHOESCHOOL_LEDGER_ANCHOR_FILE"}
    result = run_manage("check", "--deploy", **env)
    assert result.returncode != 0
    assert "ledger.E001" in result.stdout + result.stderr
