"""Site-wide request guards that belong to no app."""

from django.http import Http404, HttpRequest, HttpResponse


class NulInPathMiddleware:
    """A path with a NUL character names nothing on this site: 404 before any view runs.

    PostgreSQL text cannot hold NUL, so a view that looks such a path up (a username, a
    code) would otherwise fail with a database error, a 500."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path_info:
            raise Http404("No such page.")
        return self.get_response(request)
