from django.apps import AppConfig


class TrainerConfig(AppConfig):
    name = "trainer"
    verbose_name = "Trainer"

    def ready(self) -> None:
        # Grades, grading runs and attempts' results are vouched for by the ledger; it is
        # told of them here, so that it needs no import of this app.
        from ledger.services.vouch import vouched_register
        from trainer.services.vouched import SPECS

        for spec in SPECS:
            vouched_register(spec)
