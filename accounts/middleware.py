from django.conf import settings
from django.utils import translation
from django.views.i18n import set_language

from accounts.language import language_supported
from accounts.selectors import profile_language
from accounts.services import profile_set_language


class UserLanguageMiddleware:
    """One language per page: the account's choice wins over the device's.

    Before the view: a logged-in user with a stored language gets it, whatever this
    browser's cookie or Accept-Language says (LocaleMiddleware chose from those). The
    table's socket reads the same stored choice first (games.web.i18n.language_for_scope),
    so the page frame and every push speak one language on every device.

    After the view: set_language (at /i18n/setlang/) only sets the language cookie, for
    any code Django has a catalog for; when it set one of our LANGUAGES, store that choice
    on the profile so that the user's other devices follow it.
    Place after AuthenticationMiddleware.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.user.is_authenticated:
            chosen = profile_language(user=request.user)
            if chosen:
                translation.activate(chosen)
                request.LANGUAGE_CODE = chosen
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        if request.method == "POST" and match is not None and match.func is set_language:
            morsel = response.cookies.get(settings.LANGUAGE_COOKIE_NAME)
            code = language_supported(morsel.value if morsel is not None else "")
            if code and request.user.is_authenticated:
                profile_set_language(user=request.user, language=code)
        return response
