"""Thin views: validate with a form, write through services, render."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login as auth_login
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.forms import (
    ProfileSettingsForm,
    RegisterForm,
    ThrottledAuthenticationForm,
    ThrottledPasswordResetForm,
)
from accounts.guests import guest_register, is_guest
from accounts.language import language_cookie_delete, language_cookie_set, language_supported
from accounts.selectors import profile_language
from accounts.services import PREFERENCES, profile_ensure, profile_set_preferences, profile_update, user_register


class LoginView(auth_views.LoginView):
    """Django's login, plus throttling (in the form) and the user's stored language."""

    form_class = ThrottledAuthenticationForm
    redirect_authenticated_user = True

    def form_valid(self, form):
        response = super().form_valid(form)
        user = form.get_user()
        language = profile_language(user=user)
        if language:
            translation.activate(language)
            language_cookie_set(response, language)
        return response


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset request, throttled per address and per client (accounts/throttle.py)."""

    form_class = ThrottledPasswordResetForm

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "request": self.request}


@require_http_methods(["GET", "POST"])
def register(request):
    """A new account; for a guest, the guest becomes the account (same row, games kept)."""
    guest = request.user if is_guest(request.user) else None
    if request.user.is_authenticated and guest is None:
        return redirect("lobby")
    form = RegisterForm(request.POST or None)
    if request.method == "POST" and form.is_valid() and guest is not None:
        try:
            guest_register(
                user=guest,
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                email=form.cleaned_data["email"],
            )
        except IntegrityError:
            form.add_error("username", _("A user with that username already exists."))
        else:
            update_session_auth_hash(request, guest)  # the new password must not log them out
            messages.success(request, _("Welcome, %(username)s! Your games are kept.") % {"username": guest.username})
            return redirect("my_matches")
    elif request.method == "POST" and form.is_valid():
        try:
            user = user_register(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                email=form.cleaned_data["email"],
                # A language picked with the header switch before registering is kept.
                language=language_supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)),
            )
        except IntegrityError:  # the same username registered a moment ago
            form.add_error("username", _("A user with that username already exists."))
        else:
            auth_login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome, %(username)s! Your account is ready.") % {"username": user.username})
            return redirect("lobby")
    return render(request, "registration/register.html", {"form": form, "guest": guest})


@login_required
@require_http_methods(["GET", "POST"])
def account_settings(request):
    current = profile_ensure(user=request.user)
    initial = {"language": current.language, "email": request.user.email}
    initial |= {name: getattr(current, name) for name in PREFERENCES}
    form = ProfileSettingsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        language = profile_update(
            user=request.user,
            language=data["language"],
            email=data["email"],
            **{name: data[name] for name in PREFERENCES},
        )
        if language:
            translation.activate(language)
        messages.success(request, _("Your settings have been saved."))
        response = redirect("account_settings")
        if language:
            language_cookie_set(response, language)
        else:
            language_cookie_delete(response)
        return response
    return render(request, "accounts/settings.html", {"form": form})


@login_required
@require_http_methods(["POST"])
def preference_toggle(request):
    """One on/off preference from a toggle on a page (the table's sound button): `name`
    and `on` ("1" or "0"). Answers JSON; anything else is refused and changes nothing."""
    name, on = request.POST.get("name"), request.POST.get("on")
    if name not in PREFERENCES or on not in ("0", "1"):
        return JsonResponse({"error": _("Unknown preference.")}, status=400)
    profile = profile_set_preferences(user=request.user, **{name: on == "1"})
    return JsonResponse({name: getattr(profile, name)})
