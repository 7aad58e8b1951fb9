"""The compliance report's life: requested, produced (now or by a Celery task), stored,
downloaded and exported, each step logged to the ledger with the file's sha256 and the
ledger head it states.

A little over 400 lines: every step writes or reads the stored file, hashes it and logs it
to the ledger through the same few helpers, which one module keeps in step.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, cast

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.core.files.base import File
from django.core.files.storage import FileSystemStorage, Storage, default_storage
from django.db import DatabaseError, transaction
from django.utils import timezone

from audit.models import ComplianceReport, ReportStatus
from audit.selectors.report_attempts import report_question_count
from audit.services.reports.rows import (
    check_request,
    compliance_report_write_csv,
    compliance_report_write_flat,
)
from core.errors import ConflictError, ForbiddenError, NotFoundError
from core.queue import enqueue
from core.roles import Role, has_role, roles_of
from ledger.events import Event, Subject
from ledger.models import LedgerEntry
from ledger.services.append import ledger_append
from ledger.services.verify import LedgerVerification

logger = logging.getLogger("audit.services.reports")

# Above this many graded questions a requested report is produced by a Celery task.
SYNC_MAX_QUESTIONS_DEFAULT = 20_000
# A report still pending or running after this long lost its task and is queued again.
STUCK_AFTER = dt.timedelta(minutes=30)


@dataclass(frozen=True)
class ExportedFile:
    path: Path
    sha256: str
    size_bytes: int
    verification: LedgerVerification


# Checks.


def _require_compliance(user: AbstractBaseUser | AnonymousUser) -> None:
    if not has_role(user, Role.COMPLIANCE, Role.ADMIN):
        raise ForbiddenError("only compliance officers and administrators handle reports")


def _write(
    fmt: str, start: dt.date, end: dt.date, path: Path, producer: AbstractBaseUser | None
) -> LedgerVerification:
    if fmt in ("csv", "flat"):
        write = compliance_report_write_csv if fmt == "csv" else compliance_report_write_flat
        with path.open("w", encoding="utf-8", newline="") as handle:
            return write(start=start, end=end, out=handle)
    # Imported here: the PDF library loads only where a PDF is written.
    from audit.services.reports.pdf import compliance_report_write_pdf

    with path.open("wb") as handle:
        return compliance_report_write_pdf(
            start=start, end=end, out=handle, produced_by=producer_text(producer)
        )


def producer_text(user: AbstractBaseUser | None) -> str:
    """Who a report is produced for, as its attestation names them: "Jo Bloggs (jo),
    Compliance officer"; the system's own runs as such."""
    if user is None:
        return "Shoe School, unattended (no person asked for this file)"
    name = user.get_full_name() if hasattr(user, "get_full_name") else ""
    text = f"{name} ({user.get_username()})" if name else user.get_username()
    roles = sorted(role.label for role in roles_of(user))
    return f"{text}, {', '.join(roles)}" if roles else text


def _digest(handle: IO[bytes] | File[bytes]) -> tuple[str, int]:
    digest = hashlib.sha256()
    size = 0
    while chunk := handle.read(1 << 20):
        digest.update(chunk)
        size += len(chunk)
    return digest.hexdigest(), size


def _sha256(path: Path) -> tuple[str, int]:
    with path.open("rb") as handle:
        return _digest(handle)


def _write_beside(
    fmt: str, start: dt.date, end: dt.date, target: Path, producer: AbstractBaseUser | None
) -> tuple[Path, str, int, LedgerVerification]:
    """Write into a temporary file next to `target`, so the final rename is atomic."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    return _write_hashed(fmt, start, end, handle, Path(name), producer)


def _write_hashed(
    fmt: str,
    start: dt.date,
    end: dt.date,
    handle: int,
    temporary: Path,
    producer: AbstractBaseUser | None,
) -> tuple[Path, str, int, LedgerVerification]:
    """Write the report into a new temporary file (its descriptor closed here) and hash
    it; the file is removed again if anything fails."""
    os.close(handle)
    try:
        verification = _write(fmt, start, end, temporary, producer)
        digest, size = _sha256(temporary)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return temporary, digest, size, verification


def _export_payload(
    *,
    start: dt.date,
    end: dt.date,
    fmt: str,
    digest: str,
    size: int,
    verification: LedgerVerification,
    via: str,
) -> dict[str, Any]:
    return {
        "period_start": start,
        "period_end": end,
        "format": fmt,
        "sha256": digest,
        "size_bytes": size,
        "ledger_entries": verification.entries,
        "ledger_head_hash": verification.head_hash,
        "ledger_ok": verification.ok,
        # 0: the whole chain was recomputed; N: the entries after the checkpoint at entry N.
        "ledger_verified_from": verification.verified_from,
        "via": via,
    }


# Exporting to a file (the command).


def compliance_report_export(
    *,
    start: dt.date,
    end: dt.date,
    fmt: str,
    out: Path,
    actor: AbstractBaseUser | None = None,
) -> ExportedFile:
    """Write the report to `out` and log the export (its sha256 and the head hash)."""
    check_request(start=start, end=end, fmt=fmt)
    temporary, digest, size, verification = _write_beside(fmt, start, end, out, actor)
    with transaction.atomic():
        ledger_append(
            event=Event.REPORT_EXPORTED,
            subject_type=Subject.REPORT_FILE,
            subject_id=out.name[:64],
            payload=_export_payload(
                start=start,
                end=end,
                fmt=fmt,
                digest=digest,
                size=size,
                verification=verification,
                via="file",
            ),
            actor=actor,
        )
        os.replace(temporary, out)
    return ExportedFile(out, digest, size, verification)


# Stored reports (the pages and the task).


def _stored_name(report: ComplianceReport) -> str:
    return (
        f"reports/compliance-{report.pk}-{report.period_start.isoformat()}"
        f"-{report.period_end.isoformat()}.{file_extension(report.format)}"
    )


def file_extension(fmt: str) -> str:
    """A report file's extension: the flat CSV is a CSV too."""
    return "csv" if fmt == "flat" else fmt


def _is_local(storage: Storage) -> bool:
    return isinstance(storage, FileSystemStorage)


def stored_report_open(report: ComplianceReport) -> File[bytes]:
    """A ready report's stored file, opened for reading through the storage (whichever the
    STORAGES setting chose: a folder of this host, the database, a bucket)."""
    return default_storage.open(report.file.name or "", "rb")


def _write_temporary(
    fmt: str, start: dt.date, end: dt.date, producer: AbstractBaseUser | None
) -> tuple[Path, str, int, LedgerVerification]:
    """Write the report into a temporary file of this host, to hash it and hand it to the
    storage whole; the caller removes it."""
    handle, name = tempfile.mkstemp(prefix="shoeschool-report-", suffix=f".{file_extension(fmt)}")
    return _write_hashed(fmt, start, end, handle, Path(name), producer)


def _sync_max_questions() -> int:
    return int(
        getattr(settings, "COMPLIANCE_REPORT_SYNC_MAX_QUESTIONS", SYNC_MAX_QUESTIONS_DEFAULT)
    )


def compliance_report_request(
    *, start: dt.date, end: dt.date, fmt: str, user: AbstractBaseUser | AnonymousUser
) -> ComplianceReport:
    """Record a report request; produce it now if small, else queue the Celery task."""
    _require_compliance(user)
    check_request(start=start, end=end, fmt=fmt)
    report = ComplianceReport.objects.create(
        period_start=start,
        period_end=end,
        format=fmt,
        requested_by=cast("User", user) if isinstance(user, AbstractBaseUser) else None,
        status=ReportStatus.PENDING,
    )
    if report_question_count(start=start, end=end) <= _sync_max_questions():
        return compliance_report_produce(report_id=report.pk)
    _enqueue(report.pk)
    return report


def _enqueue(report_id: int) -> None:
    enqueue("audit.tasks.produce_compliance_report", report_id)


def compliance_report_produce(*, report_id: int) -> ComplianceReport:
    """Produce a requested report's file, store it, and log it; a ready report is left alone.

    Safe to run twice at once: only the first to finish stores its file and logs it.
    """
    with transaction.atomic():
        report = ComplianceReport.objects.select_for_update().filter(pk=report_id).first()
        if report is None:
            raise NotFoundError("no such report")
        if report.status == ReportStatus.READY:
            return report
        report.status = ReportStatus.RUNNING
        report.save(update_fields=["status"])
    try:
        temporary, digest, size, verification = _write_temporary(
            report.format, report.period_start, report.period_end, report.requested_by
        )
    except DatabaseError:
        # Likely passing (a lock, a lost connection): the task retries, the report stays queued.
        raise
    except Exception as exc:
        return _failed(report_id, exc)
    try:
        # Stored before the report is marked ready, outside its transaction: a storage that
        # is out of reach (a full disk, a bucket refusing) fails the report, not the task.
        with temporary.open("rb") as handle:
            name = default_storage.save(_stored_name(report), File(handle))
    except DatabaseError:
        raise
    except Exception as exc:
        return _failed(report_id, exc)
    finally:
        temporary.unlink(missing_ok=True)
    with transaction.atomic():
        report = ComplianceReport.objects.select_for_update().get(pk=report_id)
        if report.status == ReportStatus.READY:
            # Another run stored its file first: this one's copy goes.
            transaction.on_commit(lambda: default_storage.delete(name))
            return report
        report.file.name = name
        report.status = ReportStatus.READY
        report.error = ""
        report.sha256 = digest
        report.size_bytes = size
        report.ledger_head_hash = verification.head_hash
        report.ledger_entries = verification.entries
        report.ledger_ok = verification.ok
        report.ledger_verified_from = verification.verified_from
        report.finished_at = timezone.now()
        report.save()
        ledger_append(
            event=Event.REPORT_EXPORTED,
            subject_type=Subject.COMPLIANCE_REPORT,
            subject_id=report.pk,
            payload=_export_payload(
                start=report.period_start,
                end=report.period_end,
                fmt=report.format,
                digest=digest,
                size=size,
                verification=verification,
                via="stored",
            ),
            actor=report.requested_by,
        )
    return report


def _failed(report_id: int, exc: Exception) -> ComplianceReport:
    logger.exception("compliance report %s failed", report_id)
    ComplianceReport.objects.filter(pk=report_id).exclude(status=ReportStatus.READY).update(
        status=ReportStatus.FAILED, error=str(exc)[:2000], finished_at=timezone.now()
    )
    return ComplianceReport.objects.get(pk=report_id)


def compliance_report_download(
    *, report_id: int, user: AbstractBaseUser | AnonymousUser
) -> ComplianceReport:
    """Hand out a ready report's stored file, checked against its sha256; logs the download."""
    _require_compliance(user)
    from audit.selectors.reports import compliance_report_get

    report = compliance_report_get(report_id=report_id)
    if report.status != ReportStatus.READY:
        raise ConflictError(f"the report is {report.status}, not ready", code="not_ready")
    digest, size = _stored_sha256(report)
    recorded = _ledger_sha256(report)
    if recorded is None:
        raise ConflictError(
            "the audit ledger has no record of this report being made, so its file cannot be "
            "vouched for: it was not made by the application, or the ledger was tampered with",
            code="file_not_in_ledger",
        )
    if digest != recorded:
        raise ConflictError(
            "the stored file no longer matches the sha256 the audit ledger recorded when it was "
            "made: it was changed after it was stored",
            code="file_changed",
        )
    with transaction.atomic():
        ledger_append(
            event=Event.REPORT_EXPORTED,
            subject_type=Subject.COMPLIANCE_REPORT,
            subject_id=report.pk,
            payload={
                "period_start": report.period_start,
                "period_end": report.period_end,
                "format": report.format,
                "sha256": digest,
                "size_bytes": size,
                "via": "download",
            },
            actor=user if isinstance(user, AbstractBaseUser) else None,
        )
    return report


def _ledger_sha256(report: ComplianceReport) -> str | None:
    """The sha256 the report's `report.exported` entry (when it was stored) recorded: the
    ledger's, not the row's own column, which whoever can change the file can change too."""
    for payload in (
        LedgerEntry.objects.filter(
            event=Event.REPORT_EXPORTED,
            subject_type=Subject.COMPLIANCE_REPORT,
            subject_id=str(report.pk),
        )
        .order_by("sequence")
        .values_list("payload", flat=True)
    ):
        if isinstance(payload, dict) and payload.get("via") == "stored":
            digest = payload.get("sha256")
            return digest if isinstance(digest, str) else None
    return None


def _stored_sha256(report: ComplianceReport) -> tuple[str, int]:
    name = report.file.name or ""
    if not default_storage.exists(name):
        if _is_local(default_storage):
            raise ConflictError(
                "the report's file is not on this host: the local file storage keeps it in a "
                "folder of the machine that produced it (or it was removed there). Download it "
                "on that machine, or keep stored files where every host reaches them "
                "(SHOESCHOOL_FILE_STORAGE=database or s3)",
                code="file_not_on_this_host",
            )
        raise ConflictError("the report's stored file is missing", code="file_missing")
    with stored_report_open(report) as handle:
        return _digest(handle)


def compliance_report_sweep(*, now: dt.datetime | None = None) -> list[int]:
    """Queue again the reports whose task was lost; returns their ids."""
    cutoff = (now or timezone.now()) - STUCK_AFTER
    stuck = list(
        ComplianceReport.objects.filter(
            status__in=[ReportStatus.PENDING, ReportStatus.RUNNING], requested_at__lt=cutoff
        ).values_list("pk", flat=True)
    )
    for report_id in stuck:
        _enqueue(report_id)
    return stuck
