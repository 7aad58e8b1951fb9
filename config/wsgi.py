import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
# Every view, form and serializer is loaded before the first request, then set aside from
# the garbage collector: its full collections no longer walk the hundreds of thousands of
# objects that live as long as the process, a pause of tens of milliseconds that would
# otherwise fall on some trainee's answer (docs/benchmarks.md, "Floor").
get_resolver().url_patterns  # noqa: B018 - imports every view
gc.collect()
gc.freeze()
