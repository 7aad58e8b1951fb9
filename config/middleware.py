"""Response headers every page and API answer needs, whatever view made it."""

from collections.abc import Callable

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils.cache import patch_cache_control


class NoStoreWhenSignedInMiddleware:
    """Nothing shown to a signed-in user is kept by a browser's or a proxy's cache.

    Results pages show the expected answers and the pit's pages a trainee's record: the
    shared tablets of a training room must not show them again from the cache, through
    the back button or to the next user. Static files never reach here (whitenoise
    answers them first), so they stay cacheable.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        # DRF's basic authentication sets the user on this request too.
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            patch_cache_control(response, private=True, no_store=True)
        return response
