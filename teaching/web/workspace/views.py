"""The workspace's front page: the way into each part of running a class."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from core import pages
from core.access import role_required


@require_GET
@role_required(*pages.WORKSPACE.roles, refusal=pages.WORKSPACE.refusal)
def index(request: HttpRequest) -> HttpResponse:
    return render(request, "trainer/workspace/index.html")
