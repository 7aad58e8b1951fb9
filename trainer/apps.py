from django.apps import AppConfig


class TrainerConfig(AppConfig):
    name = "trainer"
    verbose_name = "Trainer"

    def ready(self) -> None:
        from django.conf import settings

        from trainer.games import games_load

        # The games this house runs; the shell never imports one (docs/architecture.md).
        games_load(settings.SHOESCHOOL_GAMES)
        # Grades, grading runs and attempts' results are vouched for by the ledger; it is
        # told of them here, so that it needs no import of this app.
        from ledger.services.vouch import vouched_register
        from trainer.services.vouched import SPECS

        for spec in SPECS:
            vouched_register(spec)
