"""Registration and the password pages in the site's own plain words, in both languages
(issue #40): none of Django's default password texts reach a player, and every refusal
says what to do instead."""

import re
from html import unescape

import pytest
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import PasswordChangeForm, SetPasswordForm, UserCreationForm
from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

User = get_user_model()
PASSWORD = "felt-table-7-kitty"
LANGUAGES = ("en", "zh-hans")


def djangos_words(language: str) -> list[str]:
    """Django's own texts for these forms, in `language` (what the site replaces)."""
    validators = [
        password_validation.UserAttributeSimilarityValidator(),
        password_validation.MinimumLengthValidator(),
        password_validation.CommonPasswordValidator(),
        password_validation.NumericPasswordValidator(),
    ]
    with translation.override(language):
        words = [str(v.get_help_text()) for v in validators]
        words += [str(v.get_error_message()).split("%")[0].rstrip() for v in validators]
        words += [str(UserCreationForm.error_messages["password_mismatch"])]
        words += [str(PasswordChangeForm.error_messages["password_incorrect"])]
        words += [str(translation.gettext(text)) for text in ("Password confirmation", "New password confirmation")]
        words += [str(translation.gettext("Enter the same password as before, for verification."))]
        words += [str(User._meta.get_field("username").help_text), str(translation.gettext("Username"))]
        words += [str(User._meta.get_field("username").error_messages["unique"])]
    return [w for w in words if w]


def page_text(response) -> str:
    main = response.text.split("<main", 1)[1].split("</main>")[0]
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", main)).split())


def assert_plain(response, language):
    text = page_text(response)
    for words in djangos_words(language):
        assert words not in text, f"Django's wording on the page ({language}): {words!r}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_registration_hints_and_refusals_are_the_sites_own(client, db, language):
    User.objects.create_user(username="mei", password=PASSWORD)
    client.cookies["django_language"] = language
    page = client.get(reverse("register"))
    assert_plain(page, language)
    with translation.override(language):
        hints = [str(v.get_help_text()) for v in password_validation.get_default_password_validators()]
    assert len(hints) == 4 and all(hint in page_text(page) for hint in hints)

    tries = [
        {"username": "MEI", "password1": PASSWORD, "password2": PASSWORD},  # taken, in another case
        {"username": "lin", "password1": "short1", "password2": "short1"},
        {"username": "lin", "password1": "password123", "password2": "password123"},
        {"username": "lin", "password1": "83729461027", "password2": "83729461027"},
        {"username": "lin", "password1": PASSWORD, "password2": PASSWORD + "x"},
        {"username": "li n", "password1": PASSWORD, "password2": PASSWORD},
        {"username": "lin-table-7", "password1": "lin-table-7", "password2": "lin-table-7"},
    ]
    refusals = []
    for data in tries:
        refused = client.post(reverse("register"), data)
        assert refused.status_code == 200
        assert_plain(refused, language)
        errors = re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', refused.text, re.S)
        assert errors, data
        refusals.append(" ".join(unescape(re.sub(r"<[^>]+>", " ", " ".join(errors))).split()))
    assert len(set(refusals)) == len(tries)  # each says what is wrong with this try
    assert User.objects.count() == 1


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_password_change_and_reset_pages_are_the_sites_own(client, db, language):
    player = User.objects.create_user(username="mei", email="mei@example.com", password=PASSWORD)
    client.force_login(player)
    client.cookies["django_language"] = language
    assert_plain(client.get(reverse("password_change")), language)
    wrong = {"old_password": "nope", "new_password1": "x-table-9", "new_password2": "x-table-8"}
    refused = client.post(reverse("password_change"), wrong)
    assert refused.status_code == 200
    assert_plain(refused, language)

    client.logout()
    client.cookies["django_language"] = language
    uid = urlsafe_base64_encode(force_bytes(player.pk))
    link = reverse("password_reset_confirm", args=[uid, default_token_generator.make_token(player)])
    form_page = client.get(link, follow=True)
    assert_plain(form_page, language)
    set_url = form_page.redirect_chain[-1][0]
    refused = client.post(set_url, {"new_password1": "12345678901", "new_password2": "12345678901"})
    assert refused.status_code == 200
    assert_plain(refused, language)
    with translation.override(language):
        assert str(SetPasswordForm.error_messages["password_mismatch"]) not in page_text(refused)
    player.refresh_from_db()
    assert player.check_password(PASSWORD)
