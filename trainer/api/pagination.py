"""Page numbers as strict input: anything but a page that exists is a 400 naming ``page``.

DRF answers a bad page with 404 ("Invalid page."), which reads like a missing resource
and which the schema did not list. Here ``?page=0``, ``?page=abc`` and a page past the
last one are bad input, said in the API's error shape; page 1 of an empty list is fine.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django.core.paginator import Paginator
from django.db.models import Model, QuerySet
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.views import APIView

from core.errors import echo

# Ten digits is past any page there will ever be, and keeps the number an int for the DB.
_PAGE = re.compile(r"[1-9][0-9]{0,9}")


class StrictPageNumberPagination(PageNumberPagination):
    last_page_strings = ()

    def paginate_queryset(
        self,
        queryset: QuerySet[Model, Any] | Sequence[Any],
        request: Request,
        view: APIView | None = None,
    ) -> list[Any] | None:
        self.request = request
        page_size = self.get_page_size(request)
        if not page_size:
            return None
        paginator = self.django_paginator_class(queryset, page_size)
        number = self._page_number(request, paginator)
        self.page = paginator.page(number)
        return list(self.page)

    def _page_number(self, request: Request, paginator: Paginator[Any]) -> int:
        raw = request.query_params.get(self.page_query_param)
        if raw is None:
            return 1
        if not _PAGE.fullmatch(raw):
            raise ValidationError(
                {"page": [f"page must be a whole number from 1, not {echo(raw)}"]}
            )
        number = int(raw)
        last = max(paginator.num_pages, 1)
        if number > last:
            raise ValidationError({"page": [f"page {number} is past the last page, {last}"]})
        return number

    def get_schema_operation_parameters(self, view: APIView) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 1}
                parameter["description"] = "A page number from 1 to the last page."
        return parameters
