from django.http import HttpRequest

from core.pages import areas_for


def navigation(request: HttpRequest) -> dict[str, object]:
    """The parts of the site the user may open (core.pages), for the top bar and the home
    page, each with its address and whether the current page lies in it."""
    user = getattr(request, "user", None)
    if user is None:
        return {"nav_areas": []}
    areas = []
    for area in areas_for(user):
        url = area.url
        areas.append({"area": area, "url": url, "current": request.path.startswith(url)})
    return {"nav_areas": areas}
