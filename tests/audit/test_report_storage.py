"""Stored reports every host reaches: produced on one machine, downloaded on another.

Two hosts are played by two data folders (MEDIA_ROOT A, then B): with the database storage
the report made under A downloads under B; with the local folder it cannot, and the page
says the file is not on this host (a 409, never a 500).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
from pathlib import Path

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from audit.models import ComplianceReport, ReportStatus
from audit.services.reports.lifecycle import compliance_report_request
from audit.tasks import produce_compliance_report
from config.settings.storage import file_storage
from core import storage as core_storage
from core.models import StoredFile, StoredFileChunk
from core.storage import DatabaseStorage
from ledger.events import Event
from ledger.models import LedgerEntry
from tests.audit.factories import RIGHT, graded_attempt, overpay

NOON = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC)
DATABASE = {"BACKEND": "core.storage.DatabaseStorage"}
LOCAL = {"BACKEND": "django.core.files.storage.FileSystemStorage"}


@pytest.fixture
def host_a(settings, tmp_path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "host-a"
    return settings.MEDIA_ROOT


def use_storage(settings, backend: dict[str, str]) -> None:
    settings.STORAGES = {**settings.STORAGES, "default": backend}


def move_to_host_b(settings, tmp_path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "host-b"
    return settings.MEDIA_ROOT


def files_under(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*") if path.is_file()] if folder.exists() else []


def download(user, report: ComplianceReport):
    client = Client()
    client.force_login(user)
    return client.get(reverse("compliance:report_download", args=[report.pk]))


def downloads_logged() -> int:
    return LedgerEntry.objects.filter(event=Event.REPORT_EXPORTED, payload__via="download").count()


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", ["csv", "pdf"])
@pytest.mark.parametrize("made_by", ["request", "task"])
def test_with_the_database_storage_a_report_made_on_one_host_downloads_on_another(
    settings, tmp_path, host_a, compliance_officer, trainee, fmt, made_by
):
    use_storage(settings, DATABASE)
    graded_attempt(trainee=trainee, grades=[RIGHT, overpay("5.00")], submitted_at=NOON)
    if made_by == "request":
        report = compliance_report_request(
            start=NOON.date(), end=NOON.date(), fmt=fmt, user=compliance_officer
        )
    else:  # a worker's task, as a large period is produced
        report = ComplianceReport.objects.create(
            period_start=NOON.date(), period_end=NOON.date(), format=fmt
        )
        assert produce_compliance_report(report.pk) == ReportStatus.READY
        report.refresh_from_db()
    assert report.status == ReportStatus.READY, report.error
    host_b = move_to_host_b(settings, tmp_path)
    response = download(compliance_officer, report)
    assert response.status_code == 200
    assert response["Content-Length"] == str(report.size_bytes)
    body = b"".join(response.streaming_content)
    assert hashlib.sha256(body).hexdigest() == report.sha256
    assert len(body) == report.size_bytes
    assert StoredFile.objects.get(name=report.file.name).size == report.size_bytes
    # Nothing went to either host's folder: the database holds the file.
    assert files_under(host_a) == files_under(host_b) == []
    assert downloads_logged() == 1


@pytest.mark.django_db
def test_with_the_local_storage_another_host_says_the_file_is_not_here(
    settings, tmp_path, host_a, compliance_officer, trainee
):
    use_storage(settings, LOCAL)
    graded_attempt(trainee=trainee, submitted_at=NOON)
    report = compliance_report_request(
        start=NOON.date(), end=NOON.date(), fmt="csv", user=compliance_officer
    )
    assert [path.name for path in files_under(host_a)] == [Path(report.file.name).name]
    move_to_host_b(settings, tmp_path)
    response = download(compliance_officer, report)
    assert response.status_code == 409
    page = response.content.decode()
    assert "not on this host" in page
    assert "SHOESCHOOL_FILE_STORAGE" in page
    assert downloads_logged() == 0
    # Back on the host that made it, the same download works.
    settings.MEDIA_ROOT = host_a
    assert download(compliance_officer, report).status_code == 200


@pytest.mark.django_db
def test_a_report_changed_in_the_database_is_not_handed_out(
    settings, host_a, compliance_officer, trainee
):
    use_storage(settings, DATABASE)
    graded_attempt(trainee=trainee, submitted_at=NOON)
    report = compliance_report_request(
        start=NOON.date(), end=NOON.date(), fmt="csv", user=compliance_officer
    )
    StoredFileChunk.objects.filter(file__name=report.file.name, index=0).update(
        data=b"summary,overpaid (USD),0.00\n"
    )
    response = download(compliance_officer, report)
    assert response.status_code == 409
    assert "no longer matches" in response.content.decode()
    assert downloads_logged() == 0


@pytest.mark.django_db
def test_a_report_whose_stored_row_is_gone_is_a_clear_409(
    settings, host_a, compliance_officer, trainee
):
    use_storage(settings, DATABASE)
    report = compliance_report_request(
        start=NOON.date(), end=NOON.date(), fmt="csv", user=compliance_officer
    )
    StoredFile.objects.all().delete()
    response = download(compliance_officer, report)
    assert response.status_code == 409
    assert "stored file is missing" in response.content.decode()


# The database storage itself.


@pytest.mark.django_db
def test_the_database_storage_keeps_a_file_in_chunks_and_reads_it_back_whole(monkeypatch):
    monkeypatch.setattr(core_storage, "CHUNK_BYTES", 1000)
    storage = DatabaseStorage()
    data = bytes(range(256)) * 10  # 2,560 bytes: three chunks
    name = storage.save("reports/a.bin", ContentFile(data))
    assert name == "reports/a.bin"
    assert StoredFileChunk.objects.filter(file__name=name).count() == 3
    assert (storage.exists(name), storage.size(name)) == (True, len(data))
    with storage.open(name) as handle:
        assert handle.read(10) == data[:10]
        assert handle.read() == data[10:]
    # A name taken gets another; nothing is overwritten.
    other = storage.save("reports/a.bin", ContentFile(b"second"))
    assert other != name
    assert storage.open(name).read() == data
    assert storage.listdir("reports") == ([], sorted([Path(name).name, Path(other).name]))
    assert storage.listdir("") == (["reports"], [])
    storage.delete(name)
    assert not storage.exists(name)
    assert not StoredFileChunk.objects.filter(file__name=name).exists()
    with pytest.raises(FileNotFoundError):
        storage.open(name)


@pytest.mark.django_db
def test_the_database_storage_takes_a_plain_stream_and_an_empty_file():
    storage = DatabaseStorage()
    name = storage.save("plain.txt", io.BytesIO(b"from a stream"))
    assert storage.open(name).read() == b"from a stream"
    empty = storage.save("empty.txt", ContentFile(b""))
    assert (storage.size(empty), storage.open(empty).read()) == (0, b"")


def test_the_database_storage_refuses_to_open_a_file_for_writing():
    with pytest.raises(ValueError, match="written with save"):
        DatabaseStorage().open("x", "wb")


@pytest.mark.django_db
def test_the_settings_storage_is_the_one_default_storage_uses(settings):
    use_storage(settings, DATABASE)
    default_storage.save("x.txt", ContentFile(b"x"))
    assert StoredFile.objects.filter(name="x.txt").exists()


# The setting, read from the environment.


@pytest.mark.parametrize(
    ("environment", "backend"),
    [
        ({}, "django.core.files.storage.FileSystemStorage"),
        ({"SHOESCHOOL_FILE_STORAGE": "local"}, "django.core.files.storage.FileSystemStorage"),
        ({"SHOESCHOOL_FILE_STORAGE": "database"}, "core.storage.DatabaseStorage"),
        (
            {"SHOESCHOOL_FILE_STORAGE": "s3", "SHOESCHOOL_S3_BUCKET": "reports"},
            "storages.backends.s3.S3Storage",
        ),
    ],
)
def test_the_storage_setting_chooses_the_backend(monkeypatch, environment, backend):
    monkeypatch.delenv("SHOESCHOOL_FILE_STORAGE", raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert file_storage()["BACKEND"] == backend


def test_the_s3_storage_is_configured_from_the_environment(monkeypatch):
    for name, value in {
        "SHOESCHOOL_FILE_STORAGE": "s3",
        "SHOESCHOOL_S3_BUCKET": "house-reports",
        "SHOESCHOOL_S3_ENDPOINT_URL": "http://minio.internal:9000",
        "SHOESCHOOL_S3_REGION": "eu-west-1",
        "SHOESCHOOL_S3_PREFIX": "shoeschool",
        "SHOESCHOOL_S3_ACCESS_KEY_ID": "key-id",
        "SHOESCHOOL_S3_SECRET_ACCESS_KEY": "secret",
    }.items():
        monkeypatch.setenv(name, value)
    options = file_storage()["OPTIONS"]
    assert options["bucket_name"] == "house-reports"
    assert options["endpoint_url"] == "http://minio.internal:9000"
    assert options["region_name"] == "eu-west-1"
    assert options["location"] == "shoeschool"
    assert (options["access_key"], options["secret_key"]) == ("key-id", "secret")
    assert options["default_acl"] is None
    assert options["file_overwrite"] is False
    # The library, where installed, takes these options as they are (no network needed).
    s3 = pytest.importorskip("storages.backends.s3")
    storage = s3.S3Storage(**options)
    assert (storage.bucket_name, storage.endpoint_url) == (
        "house-reports",
        "http://minio.internal:9000",
    )


@pytest.mark.parametrize(
    ("environment", "message"),
    [
        ({"SHOESCHOOL_FILE_STORAGE": "nfs"}, "must be one of local, database, s3, not 'nfs'"),
        ({"SHOESCHOOL_FILE_STORAGE": "s3"}, "SHOESCHOOL_S3_BUCKET"),
    ],
)
def test_a_storage_setting_that_cannot_work_stops_the_start(monkeypatch, environment, message):
    import environ

    monkeypatch.delenv("SHOESCHOOL_S3_BUCKET", raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(environ.ImproperlyConfigured, match=message):
        file_storage()


# The tables come on a database that already holds reports.


@pytest.mark.django_db(transaction=True)
def test_the_migrations_add_the_file_tables_to_a_filled_database(compliance_officer):
    report = compliance_report_request(
        start=NOON.date(), end=NOON.date(), fmt="csv", user=compliance_officer
    )
    executor = MigrationExecutor(connection)
    before = [("core", None), ("audit", "0005_ledger_moved_to_ledger_app")]
    executor.migrate(before)
    executor.loader.build_graph()
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
    assert "core_storedfile" not in tables
    executor.migrate(executor.loader.graph.leaf_nodes())
    kept = ComplianceReport.objects.get(pk=report.pk)
    assert (kept.sha256, kept.status) == (report.sha256, ReportStatus.READY)
    assert kept.ledger_verified_from is None  # unknown for a report made before
    assert DatabaseStorage().save("after.txt", ContentFile(b"ok")) == "after.txt"


def test_production_takes_the_storage_setting_and_refuses_an_unknown_one():
    from tests.test_settings import PRODUCTION, run_manage

    show = "from django.core.files.storage import storages; print(type(storages['default']))"
    shown = run_manage("shell", "-c", show, **PRODUCTION, SHOESCHOOL_FILE_STORAGE="database")
    assert shown.returncode == 0, shown.stderr
    assert "core.storage.DatabaseStorage" in shown.stdout
    refused = run_manage("check", **PRODUCTION, SHOESCHOOL_FILE_STORAGE="nfs")
    assert refused.returncode != 0
    assert "SHOESCHOOL_FILE_STORAGE must be one of local, database, s3, not 'nfs'" in refused.stderr
