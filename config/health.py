"""The /healthz probe: is the database answering, and can we reach the broker?"""

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.celery import app as celery_app
from config.probes import database_status


def broker_status() -> str:
    try:
        with celery_app.connection_for_write() as conn:
            # One quick retry: a probe must answer fast, and a refused port is final.
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=1, timeout=2)
    except Exception as exc:  # any transport error means "down"
        return f"error: {exc.__class__.__name__}: {exc}".strip()
    return "ok"


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 with each component's status when all are up, 503 when any is down."""
    checks = {"database": database_status(), "broker": broker_status()}
    healthy = all(status == "ok" for status in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "error", **checks}, status=200 if healthy else 503
    )
