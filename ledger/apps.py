from django.apps import AppConfig


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = "Ledger"

    def ready(self) -> None:
        from django.core import checks

        from ledger.checks import TAG, anchor_file_placement

        checks.register(anchor_file_placement, TAG, checks.Tags.security)
