from django.conf import settings
from django.views.i18n import set_language

from accounts.language import language_supported
from accounts.services import profile_set_language


class UserLanguageMiddleware:
    """Remember the language a logged-in user picks with Django's set_language view.

    set_language (at /i18n/setlang/) only sets the language cookie, for any code
    Django has a catalog for; when it set one of our LANGUAGES, store that choice on
    the profile so that logging in elsewhere restores it (see views.LoginView).
    Place after AuthenticationMiddleware.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        if request.method == "POST" and match is not None and match.func is set_language:
            morsel = response.cookies.get(settings.LANGUAGE_COOKIE_NAME)
            code = language_supported(morsel.value if morsel is not None else "")
            if code and request.user.is_authenticated:
                profile_set_language(user=request.user, language=code)
        return response
