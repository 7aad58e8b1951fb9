"""Reading a PDF back as text with poppler's pdftotext, for the report and record tests.

Without it those tests are skipped, saying which package to install (scripts/test installs
it with apt-get when run as root, as CI does)."""

import shutil
import subprocess
from pathlib import Path

import pytest

MISSING = "needs pdftotext: install Debian's poppler-utils (apt-get install poppler-utils)"

needs_pdftotext = pytest.mark.skipif(shutil.which("pdftotext") is None, reason=MISSING)


def pdf_text(path: Path, *, layout: bool = True) -> str:
    """The PDF's text, laid out as on the page unless ``layout`` is off."""
    command = ["pdftotext", *(["-layout"] if layout else []), str(path), "-"]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout
