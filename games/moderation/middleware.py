from django.contrib.auth import logout

from games.sanctions import is_banned


class BannedUserMiddleware:
    """Log a banned user out on any HTTP request (their sessions are also deleted at
    ban time; this covers sessions that outlive that, e.g. other session backends).
    Place after AuthenticationMiddleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.user.is_authenticated and is_banned(request.user):
            logout(request)  # flushes the session and sets request.user to AnonymousUser
        return self.get_response(request)
