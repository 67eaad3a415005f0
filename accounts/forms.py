from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    PasswordResetForm,
    SetPasswordForm,
    UserCreationForm,
)
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.guests import GUEST_PREFIX
from accounts.models import language_choices
from accounts.throttle import (
    client_ip,
    login_failure_record,
    login_throttle_clear,
    login_throttle_wait,
    password_reset_allowed,
)

PASSWORD_MISMATCH = _("The two passwords differ: type the same one twice.")
PASSWORD_AGAIN_HELP = _("Type it once more, to be sure of it.")


class NameCharactersValidator(UnicodeUsernameValidator):
    message = _("A name may hold letters, digits and @ . + - _ only (no spaces).")


class RegisterForm(UserCreationForm):
    """Username (unique, case-insensitively), optional e-mail, password checked by
    AUTH_PASSWORD_VALIDATORS (accounts/passwords.py), every text in plain words.
    Validation only: the view calls services.user_register."""

    error_messages = {**UserCreationForm.error_messages, "password_mismatch": PASSWORD_MISMATCH}
    email = forms.EmailField(
        label=_("E-mail (optional)"),
        required=False,
        help_text=_("Only used to reset your password if you forget it."),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        name = self.fields["username"]
        name.label = _("Name")
        name.help_text = _(
            "What the other players see at the table: letters, digits and @ . + - _ without spaces, up to 150."
        )
        name.validators = [
            NameCharactersValidator() if isinstance(v, UnicodeUsernameValidator) else v for v in name.validators
        ]
        self.fields["password2"].label = _("Password again")
        self.fields["password2"].help_text = PASSWORD_AGAIN_HELP

    def clean_username(self):
        username = self.cleaned_data.get("username")
        if username and username.lower().startswith(GUEST_PREFIX):  # guests' names: nobody may pose as one
            raise ValidationError(
                _("Names starting with “%(prefix)s” are kept for guests."), params={"prefix": GUEST_PREFIX}
            )
        if username and get_user_model().objects.filter(username__iexact=username).exists():
            raise ValidationError(
                _("Someone already plays as “%(name)s”: choose another name."), code="unique", params={"name": username}
            )
        return username


class PlainSetPasswordForm(SetPasswordForm):
    """Django's new-password form (after a reset link) in plain words."""

    error_messages = {**SetPasswordForm.error_messages, "password_mismatch": PASSWORD_MISMATCH}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["new_password2"].label = _("New password again")
        self.fields["new_password2"].help_text = PASSWORD_AGAIN_HELP


class PlainPasswordChangeForm(PasswordChangeForm):
    """Django's password change form in plain words."""

    error_messages = {
        **PasswordChangeForm.error_messages,
        "password_mismatch": PASSWORD_MISMATCH,
        "password_incorrect": _("That is not your current password: type it again."),
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["old_password"].label = _("Current password")
        self.fields["new_password2"].label = _("New password again")
        self.fields["new_password2"].help_text = PASSWORD_AGAIN_HELP


class LoginThrottleMixin:
    """For AuthenticationForm subclasses: refuse attempts while the username or the IP
    is throttled, count failures, and clear the username's count after a success."""

    def clean(self):
        username = self.cleaned_data.get("username")
        if username is None or not self.cleaned_data.get("password"):
            return super().clean()  # an incomplete form is not a login attempt
        ip = client_ip(self.request)
        wait = login_throttle_wait(username=username, ip=ip)
        if wait:
            minutes = (wait + 59) // 60
            raise ValidationError(
                ngettext(
                    "Too many failed login attempts. Please try again in %(minutes)d minute.",
                    "Too many failed login attempts. Please try again in %(minutes)d minutes.",
                    minutes,
                ),
                code="throttled",
                params={"minutes": minutes},
            )
        try:
            cleaned_data = super().clean()
        except ValidationError as error:
            # A wrong password only: the admin refuses a non-staff user's right password with
            # the same code, and counting that would let anyone lock a username out.
            if error.code == "invalid_login" and self.user_cache is None:
                login_failure_record(username=username, ip=ip)
            raise
        login_throttle_clear(username=username)
        return cleaned_data


class LoginChecksMixin:
    """For AuthenticationForm subclasses: after the right password, each check named in
    settings.ACCOUNTS_LOGIN_CHECKS (a dotted path to `check(user)`, which raises
    ValidationError to refuse) may still refuse the login: moderation's ban
    (games/moderation/login.py) is one, and accounts imports nothing from games."""

    def confirm_login_allowed(self, user):
        super().confirm_login_allowed(user)
        for path in settings.ACCOUNTS_LOGIN_CHECKS:
            import_string(path)(user)


class ThrottledAuthenticationForm(LoginThrottleMixin, LoginChecksMixin, AuthenticationForm):
    """The site's login form (accounts.views.LoginView)."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _("That name and password do not match an account. Check both: capitals count."),
    }


class ThrottledAdminAuthenticationForm(LoginThrottleMixin, LoginChecksMixin, AdminAuthenticationForm):
    """The admin's login form (set in accounts/admin.py), so /admin/login/ is no way around the limit."""


class ProfileSettingsForm(forms.Form):
    language = forms.ChoiceField(label=_("Language"), choices=language_choices, required=False)
    email = forms.EmailField(
        label=_("E-mail"),
        required=False,
        help_text=_("Used only for password reset e-mails."),
    )
    sound = forms.BooleanField(label=_("Sounds at the table"), required=False)
    four_colour = forms.BooleanField(
        label=_("Four-colour deck"),
        required=False,
        help_text=_("♠ black, ♥ red, ♦ blue, ♣ green: suits told apart without relying on red and black."),
    )
    play_forced = forms.BooleanField(
        label=_("Play forced moves for me"),
        required=False,
        help_text=_("When only one legal play exists, it is played for you at once."),
    )


class ThrottledPasswordResetForm(PasswordResetForm):
    """Django's reset form, with a limit on how often one address is mailed or one
    client asks (accounts/throttle.py), so the form cannot be used to flood an inbox."""

    def __init__(self, *args, request=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.request = request

    def clean_email(self):
        email = self.cleaned_data["email"]
        ip = client_ip(self.request) if self.request is not None else "unknown"
        if not password_reset_allowed(email=email, ip=ip):
            raise ValidationError(_("Too many password-reset requests. Please try again in an hour."), code="throttled")
        return email
