from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "audit"
    verbose_name = "Audit"

    def ready(self) -> None:
        # The heads the compliance reports state are anchors the ledger is verified against;
        # the ledger is told of them here, so that it needs no import of this app.
        from audit.services.anchors import report_anchors
        from ledger.services.verify import anchor_source_register

        anchor_source_register(report_anchors)

        # Certifications, flags, refreshers, reviews, signers' authority and practical sheets
        # are vouched for by the ledger.
        from audit.services.vouched import SPECS
        from ledger.services.vouch import vouched_register

        for spec in SPECS:
            vouched_register(spec)

        # The credential key's start-up check.
        import audit.checks  # noqa: F401
