import os

from django.core import checks
from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

from core.collector import objects_kept_out_of_collection

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
# The ledger's start-up check (ledger.checks): production refuses to serve with the
# checkpoint file within the database insider's reach. gunicorn runs no system check itself.
_refused = [message for message in checks.run_checks(tags=["ledger"]) if message.is_serious()]
if _refused:
    raise ImproperlyConfigured("; ".join(str(message) for message in _refused))
# Every view, form and serializer is loaded before the first request, then set aside from
# the garbage collector: its full collections no longer walk the hundreds of thousands of
# objects that live as long as the process, a pause of tens of milliseconds that would
# otherwise fall on some trainee's answer (docs/benchmarks.md, "Floor").
get_resolver().url_patterns  # noqa: B018 - imports every view
objects_kept_out_of_collection()
