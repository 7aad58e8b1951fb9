"""A trainee's training record: one PDF for the personnel file.

It lists the exams the trainee sat, the table tests signed (who signed, in what role,
when, what they signed, until when, and any withdrawal) and the retraining flags with
how they were lifted. Each page names who produced it, when, and the ledger entry the
record was read at; every download is itself written to the ledger with the file's
SHA-256, so the copy in a personnel file can be matched to its entry.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from audit.authority import signature_text
from audit.certification import CertificationRule, profile_label
from audit.models import PracticalSheet
from audit.selectors import pit as audit_selectors
from audit.services.reports.pdf import table_style
from core.dates import house_minute, zone_statement
from core.errors import NotFoundError
from core.roles import Role, roles_of
from ledger.events import Event, Subject
from ledger.services.append import ledger_append
from trainer.labels import skill_words
from trainer.selectors import visibility

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from audit.models import Certification, RetrainingFlag

NOTHING = "—"


def training_record_pdf(*, trainee: User, user: User) -> bytes:
    """The trainee's training record as PDF bytes, for a pit boss of the trainee's class, a
    compliance officer or an admin (anyone else: NotFoundError, as for the trainee's page).
    The download is logged to the ledger."""
    if not visibility.trainees_visible_to(user=user).filter(pk=trainee.pk).exists():
        raise NotFoundError("no such trainee among yours", field="trainee")
    record = audit_selectors.training_record(
        trainee_id=trainee.pk, rule=CertificationRule.from_settings()
    )
    sequence, head_hash = audit_selectors.ledger_head()
    produced_at = timezone.now()
    data = _pdf(
        record,
        sheets=[_sheet_cells(sheet) for sheet in _sheets(trainee)],
        producer=_person(user),
        produced_at=produced_at,
        sequence=sequence,
        head_hash=head_hash,
    )
    with transaction.atomic():
        ledger_append(
            event=Event.TRAINING_RECORD_EXPORTED,
            subject_type=Subject.TRAINEE,
            subject_id=trainee.pk,
            payload={
                "trainee_id": trainee.pk,
                "produced_at": produced_at,
                "sha256": hashlib.sha256(data).hexdigest(),
                "size_bytes": len(data),
                # The ledger entry the record was read at, as its footer states it.
                "ledger_sequence": sequence,
                "ledger_head_hash": head_hash,
            },
            actor=user,
        )
    return data


def _role_label(user: User) -> str:
    held = roles_of(user)
    for role in (Role.ADMIN, Role.COMPLIANCE, Role.PIT_BOSS, Role.TRAINEE):
        if role in held:
            return role.label
    return "no role"


def _person(user: User) -> str:
    return f"{user.get_full_name().strip() or user.get_username()} ({_role_label(user)})"


def _stamp(when: dt.datetime | None) -> str:
    """A time as the house's documents write it, in its zone: 2026-11-23 09:39 EST."""
    return house_minute(when) if when else NOTHING


def _day(when: dt.datetime | None) -> str:
    return timezone.localdate(when).isoformat() if when else NOTHING


def _signer_role(cert: Certification) -> str:
    try:
        return Role(cert.signer_role).label
    except ValueError:
        return ""


def _signed_by(cert: Certification) -> str:
    role = _signer_role(cert)
    signature = signature_text(cert.signer_full_name, cert.signer_rank, cert.signer_licence)
    return f"{signature} (as {role.lower()})" if role else signature


def _standing_text(state: audit_selectors.TableState) -> str:
    standing = audit_selectors.TableStanding
    when = _day(state.when)
    return {
        standing.CERTIFIED: f"certified until {when}",
        standing.EXPIRING: f"certified until {when} (expiring soon)",
        standing.EXPIRED: f"certification expired {when}",
        standing.WITHDRAWN: f"certification withdrawn {when}",
        standing.PASSED: f"passed {when}, not yet signed",
        standing.NOT_PASSED: "sat, not passed",
        standing.NOT_SAT: "not sat",
    }[state.standing]


def _sitting_cells(sitting: audit_selectors.Sitting, tables: dict[str, str]) -> list[str]:
    evidence, drill = sitting.evidence, sitting.drill
    if drill.certifies is not None:
        table = drill.certifies.title or drill.certifies.name
    else:
        table = ", ".join(tables.get(name, name) for name in evidence.profiles) or NOTHING
    score = NOTHING if evidence.score is None else f"{evidence.score} %"
    return [
        _stamp(evidence.submitted_at or evidence.graded_at),
        drill.title,
        table,
        score,
        "pass" if evidence.passed else "fail",
    ]


def _signature_cells(signature: audit_selectors.SignatureRecord) -> list[str]:
    cert, withdrawal = signature.certification, signature.withdrawal
    statement = f"“{cert.statement}”"
    if cert.override_reason:
        statement += f" Signed despite a retraining flag in force: “{cert.override_reason}”."
    for warning in cert.acknowledged:
        statement += f" Acknowledged: {warning}."
    evidence = cert.evidence or {}
    if evidence.get("attempt_id"):
        statement += f" On its table-test sitting, {evidence.get('score')} %."
    if withdrawal is None:
        withdrawn = "no"
    else:
        withdrawn = (
            f"Withdrawn {_stamp(withdrawal.signed_at)} by {_signed_by(withdrawal)}: "
            f"“{withdrawal.statement}”"
        )
    return [
        cert.profile.title or cert.profile.name,
        f"{_stamp(cert.signed_at)} by {_signed_by(cert)}",
        statement,
        _day(cert.expires_at) if cert.expires_at else "does not expire",
        withdrawn,
    ]


def _flag_cells(entry: audit_selectors.FlagRecord) -> list[str]:
    flag = entry.flag
    labels = skill_words()
    reason = flag.reason
    if flag.skills:
        reason += " (skills: " + ", ".join(labels.get(s, s) for s in flag.skills) + ")"
    return [
        f"{_stamp(flag.created_at)} by {_name(flag.flagged_by)}",
        reason,
        "; ".join(_correction_text(c) for c in entry.corrections) or "In force",
    ]


def _correction_text(correction: RetrainingFlag) -> str:
    how = "Lifted" if not correction.active else "Replaced by a new flag"
    return (
        f"{how} by {_name(correction.flagged_by)} on {_stamp(correction.created_at)}: "
        f"“{correction.reason}”"
    )


def _name(user: Any) -> str:
    return user.get_full_name().strip() or user.get_username()


def _retention() -> str:
    kept = str(getattr(settings, "SHOESCHOOL_CERT_RETENTION", "indefinite"))
    return "indefinitely" if kept == "indefinite" else f"for {kept} years"


def _sheets(trainee: User) -> list[PracticalSheet]:
    return list(
        PracticalSheet.objects.filter(trainee=trainee)
        .select_related("profile")
        .order_by("signed_at", "pk")
    )


def _sheet_cells(sheet: PracticalSheet) -> list[str]:
    """A practical evaluation sheet as the record lists it."""
    result = f"passed, {sheet.score} %" if sheet.passed else f"not passed, {sheet.score} %"
    if sheet.shortfalls:
        result += ": " + "; ".join(sheet.shortfalls)
    return [
        profile_label(sheet.profile),
        f"{_stamp(sheet.signed_at)} by "
        + signature_text(sheet.evaluator_full_name, sheet.evaluator_rank, sheet.evaluator_licence),
        result,
        f"corrects the sheet of {_stamp(sheet.corrects.signed_at)}" if sheet.corrects else "",
    ]


def _pdf(
    record: audit_selectors.TrainingRecord,
    *,
    sheets: list[list[str]],
    producer: str,
    produced_at: dt.datetime,
    sequence: int,
    head_hash: str,
) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table

    styles = getSampleStyleSheet()
    cell_style = styles["BodyText"].clone("cell", fontSize=8, leading=10)
    head_style = cell_style.clone("head", fontName="Helvetica-Bold", textColor=colors.white)
    heading = styles["Heading2"].clone("section", keepWithNext=1)
    usable = A4[0] - 30 * mm
    trainee = record.trainee
    name = _name(trainee)

    def table(columns: Sequence[str], rows: Iterable[Sequence[str]], shares: Sequence[float]):
        data = [[Paragraph(escape(c), head_style) for c in columns]]
        data += [[Paragraph(escape(v), cell_style) for v in row] for row in rows]
        result = Table(data, colWidths=[usable * s for s in shares], repeatRows=1, hAlign="LEFT")
        result.setStyle(table_style())
        return result

    def part(title: str, columns: Sequence[str], rows: list[list[str]], shares, empty: str):
        story.append(Paragraph(title, heading))
        story.append(table(columns, rows, shares) if rows else Paragraph(empty, styles["Normal"]))

    def footer(canvas: Canvas, doc: SimpleDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 7.5)
        canvas.drawString(
            doc.leftMargin,
            12 * mm,
            f"Training record of {name} · produced by {producer} on {_stamp(produced_at)}",
        )
        canvas.drawString(
            doc.leftMargin,
            8.5 * mm,
            f"Read at ledger entry {sequence}, head hash {head_hash[:16]}…",
        )
        canvas.drawRightString(
            doc.pagesize[0] - doc.rightMargin, 8.5 * mm, f"Page {canvas.getPageNumber()}"
        )
        canvas.restoreState()

    story: list[Any] = [
        Paragraph("Training record", styles["Title"]),
        Paragraph(
            f"<b>{escape(name)}</b> (user {escape(trainee.get_username())})", styles["Normal"]
        ),
        Paragraph(escape("Classes: " + (", ".join(record.classes) or "none")), styles["Normal"]),
        Paragraph(escape(zone_statement(on=timezone.localdate(produced_at))), styles["Normal"]),
        Spacer(1, 3 * mm),
    ]
    part(
        f"Standing at each table on {_stamp(produced_at)}",
        ("Table", "Standing"),
        [[state.profile, _standing_text(state)] for state in record.states],
        (0.4, 0.6),
        "No table test sat.",
    )
    part(
        "Exams sat",
        ("Sat", "Exam", "Table", "Score", "Result"),
        [_sitting_cells(s, record.tables_by_name) for s in record.sittings],
        (0.2, 0.34, 0.22, 0.13, 0.11),
        "No exam sat.",
    )
    part(
        "Table tests signed",
        ("Table", "Signed", "Statement", "Expires", "Withdrawal"),
        [_signature_cells(s) for s in record.signatures],
        (0.14, 0.22, 0.3, 0.11, 0.23),
        "No table test signed.",
    )
    part(
        "Practical evaluations",
        ("Table", "Signed", "Result", "Correction"),
        sheets,
        (0.18, 0.37, 0.3, 0.15),
        "No practical evaluation signed.",
    )
    part(
        "Retraining",
        ("Flagged", "Reason", "Lifted"),
        [_flag_cells(f) for f in record.flags],
        (0.25, 0.35, 0.4),
        "Never flagged for retraining.",
    )
    # The compliance report's attestation block, signed the same way.
    from audit.services.reports.pdf import attestation

    story += [
        Spacer(1, 6 * mm),
        *attestation(
            styles,
            title="Attestation",
            produced_by=producer,
            produced_at=produced_at,
            sequence=sequence,
            head_hash=head_hash,
            ledger_state="the head when this record was read",
            statement=(
                f"Certification records are kept {_retention()}. This record was read at "
                f"ledger entry no. {sequence:,}; its download is written to the ledger after "
                "it, with this file's SHA-256."
            ),
        ),
    ]
    out = io.BytesIO()
    document = SimpleDocTemplate(
        out,
        pagesize=A4,
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=15 * mm,
        bottomMargin=20 * mm,
        title=f"Training record: {name}",
        author="Shoe School",
    )
    document.build(story, onFirstPage=footer, onLaterPages=footer)
    return out.getvalue()
