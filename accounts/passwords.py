"""Django's password checks with the site's own plain words (settings.AUTH_PASSWORD_VALIDATORS).

The rules are Django's; only what a player reads changes: a short hint for each check
under the password field, and an error that says what to do instead.
"""

from django.contrib.auth import password_validation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


class LikeYourNameValidator(password_validation.UserAttributeSimilarityValidator):
    def get_error_message(self):
        return _("This password is too much like your %(verbose_name)s: choose one that has nothing to do with it.")

    def get_help_text(self):
        return _("Nothing like your name or e-mail.")


class LongEnoughValidator(password_validation.MinimumLengthValidator):
    def get_error_message(self):
        return ngettext(
            "Too short: use at least %(min_length)d character.",
            "Too short: use at least %(min_length)d characters.",
            self.min_length,
        )

    def get_help_text(self):
        return ngettext(
            "At least %(min_length)d character.", "At least %(min_length)d characters.", self.min_length
        ) % {"min_length": self.min_length}


class NotCommonValidator(password_validation.CommonPasswordValidator):
    def get_error_message(self):
        return _("Many people use this password, so it is guessed first: choose another.")

    def get_help_text(self):
        return _("Not a password many people use, such as “password1”.")


class NotOnlyDigitsValidator(password_validation.NumericPasswordValidator):
    def get_error_message(self):
        return _("Digits alone are easy to guess: add some letters.")

    def get_help_text(self):
        return _("Not digits alone.")
