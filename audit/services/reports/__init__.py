"""The compliance report: produced as CSV or PDF, stored, and logged to the ledger.

- `lifecycle`: requesting, producing (now or by a Celery task), storing, downloading and
  exporting a report, each logged to the ledger.
- `rows`: the report's sections as rows, their columns and cells, and the CSV writer.
- `pdf`: the PDF layout, a function per part (loads reportlab; imported where used).
"""
