from django.apps import AppConfig


class CoreConfig(AppConfig):
    """The kernel as an app only for its one table set: the files core.storage keeps."""

    name = "core"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from core.converters import register

        register()
