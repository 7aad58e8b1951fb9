from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from core.errors import NotFoundError
from trainer.selectors.tables import table_card_get, table_cards


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """The landing page: each role sees the way into its own work."""
    return render(request, "home.html")


@require_GET
@login_required
def tables(request: HttpRequest) -> HttpResponse:
    """Every table's house rule, as its printed table card: for everyone who deals,
    trains or checks a game."""
    return render(request, "tables.html", {"cards": table_cards(), "single": False})


@require_GET
@login_required
def table_card(request: HttpRequest, name: str) -> HttpResponse:
    """One table's card, alone on the page, to print and put at the table."""
    try:
        card = table_card_get(name=name)
    except NotFoundError:
        raise Http404("no such table") from None
    return render(request, "tables.html", {"cards": [card], "single": True})
