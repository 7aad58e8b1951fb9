"""The certificate PDF of a certification: one landscape page naming the trainee, the
game and the table, who signed it (full name, rank and licence number; a row older than
ranks, name and role), the practical test's evaluator it rested on (the same, and the
date), when, until when, the verification
code and a QR code of the public verify page's address (docs/security.md,
*Certificates anyone can verify*). Drawn with reportlab; the QR code by segno.

Whoever may read the certification may download it: the trainee themselves, a pit boss
of their class, compliance and administrators
(audit.selectors.certificates.certification_get_for_reader).
"""

from __future__ import annotations

import io

import segno
from django.conf import settings
from reportlab.lib.colors import HexColor, black, white
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from audit.authority import signature_text
from audit.models import Certificate, Certification, PracticalSheet
from audit.selectors.certificates import Standing, State, practical_sheet_of, standing_of
from audit.services.certificates import certificate_of, code_shown
from audit.services.credentials import public_url
from core.dates import house_minute, zone_statement

GREEN = HexColor("#14532d")
VALUE_WIDTH = 122 * mm  # from the values' column to the QR code
STATE_NOTE = {
    State.EXPIRED: "This certificate has expired.",
    State.WITHDRAWN: "This certificate was withdrawn.",
    State.SUPERSEDED: "This certificate was replaced by a correction.",
    State.UNVERIFIABLE: "This certificate cannot be verified: ask the issuer.",
}


def verify_address(certificate: Certificate) -> str:
    return public_url("verify:code", code_shown(certificate.code))


def certificate_pdf(*, certification: Certification) -> tuple[Certificate, bytes]:
    """The certificate and its PDF's bytes."""
    certificate = certificate_of(certification=certification)
    standing = standing_of(certificate)
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=landscape(A4), pageCompression=0)
    canvas.setTitle(f"Certificate {code_shown(certificate.code)}")
    canvas.setAuthor(standing.signer_name or "Shoe School")
    _draw(canvas, certificate, standing, practical_sheet_of(certification))
    canvas.showPage()
    canvas.save()
    return certificate, out.getvalue()


def evaluator_words(sheet: PracticalSheet) -> str:
    """The practical test's evaluator as the certificate states them, with the date."""
    signature = signature_text(
        sheet.evaluator_full_name, sheet.evaluator_rank, sheet.evaluator_licence
    )
    return f"{signature}, on {house_minute(sheet.signed_at)}"


def _draw(
    canvas: Canvas, certificate: Certificate, standing: Standing, sheet: PracticalSheet | None
) -> None:
    width, height = landscape(A4)
    canvas.setStrokeColor(GREEN)
    canvas.setLineWidth(3)
    canvas.rect(12 * mm, 12 * mm, width - 24 * mm, height - 24 * mm)
    canvas.setFillColor(GREEN)
    canvas.setFont("Helvetica-Bold", 28)
    canvas.drawCentredString(width / 2, height - 42 * mm, "Dealer certificate")
    canvas.setFillColor(black)
    canvas.setFont("Helvetica", 13)
    canvas.drawCentredString(width / 2, height - 55 * mm, "This certifies that")
    canvas.setFont("Helvetica-Bold", 24)
    canvas.drawCentredString(width / 2, height - 70 * mm, standing.trainee_name or "—")
    canvas.setFont("Helvetica", 13)
    canvas.drawCentredString(
        width / 2, height - 82 * mm, f"may deal {standing.game} at the table {standing.table},"
    )
    canvas.drawCentredString(
        width / 2, height - 90 * mm, "on a passed table test signed off as below."
    )
    lines = [
        ("Signed by", standing.signature),
        ("Signed on", house_minute(standing.signed_at) if standing.signed_at else "—"),
        *([("Practical test evaluated by", evaluator_words(sheet))] if sheet else []),
        ("Valid until", house_minute(standing.expires_at) if standing.expires_at else "—"),
        ("Verification code", code_shown(certificate.code)),
    ]
    y = height - 110 * mm
    for label, value in lines:
        canvas.setFont("Helvetica", 11)
        canvas.drawString(30 * mm, y, label)
        font = "Courier-Bold" if label == "Verification code" else "Helvetica-Bold"
        # Shrunk to end before the QR code, however long a name and licence are.
        size = 12.0
        while size > 7 and canvas.stringWidth(value, font, size) > VALUE_WIDTH:
            size -= 0.5
        canvas.setFont(font, size)
        canvas.drawString(85 * mm, y, value)
        y -= 9 * mm
    address = verify_address(certificate)
    canvas.setFont("Helvetica", 9)
    canvas.drawString(30 * mm, y - 2 * mm, f"Check it at {address}")
    canvas.drawString(30 * mm, y - 7 * mm, "or type the code at " + public_url("verify:form"))
    canvas.drawString(30 * mm, 20 * mm, zone_statement())
    canvas.setFont("Helvetica", 11)
    canvas.drawCentredString(
        width / 2, height - 24 * mm, f"Issued by {settings.SHOESCHOOL_ISSUER_NAME}"
    )
    canvas.setFont("Helvetica", 9)
    canvas.drawCentredString(width - 55 * mm, 25 * mm, "Scan to verify")
    note = STATE_NOTE.get(standing.state)
    if note:
        canvas.setFillColor(HexColor("#991b1b"))
        canvas.setFont("Helvetica-Bold", 14)
        canvas.drawCentredString(width / 2, height - 100 * mm, note)
        canvas.setFillColor(black)
    _qr(canvas, address, x=width - 85 * mm, y=30 * mm, size=60 * mm)


def _qr(canvas: Canvas, data: str, *, x: float, y: float, size: float) -> None:
    """The QR code of `data`, drawn module by module (with its quiet zone) in a square."""
    code = segno.make(data, error="m", micro=False)
    rows = list(code.matrix_iter(scale=1, border=4))
    module = size / len(rows)
    canvas.setFillColor(white)
    canvas.rect(x, y, size, size, stroke=0, fill=1)
    canvas.setFillColor(black)
    for r, row in enumerate(rows):
        for c, dark in enumerate(row):
            if dark:
                canvas.rect(
                    x + c * module, y + size - (r + 1) * module, module, module, stroke=0, fill=1
                )
