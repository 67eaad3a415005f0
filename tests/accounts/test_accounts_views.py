"""accounts.views and the auth URLs: register, log in/out, password change and reset,
profile and settings pages."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.models import Profile

User = get_user_model()
PASSWORD = "felt-table-7-kitty"
NEW_PASSWORD = "tractor-pair-9-trump"


@pytest.fixture
def player(db):
    return User.objects.create_user(username="mei", email="mei@example.com", password=PASSWORD)


def register(client, username="lin", password=PASSWORD, email=""):
    data = {"username": username, "email": email, "password1": password, "password2": password}
    return client.post(reverse("register"), data)


# Registration


def test_register_creates_user_and_profile_and_logs_in(client, db):
    response = register(client, email="lin@example.com")
    assert response.status_code == 302 and response.url == reverse("lobby")
    user = User.objects.get(username="lin")
    assert user.email == "lin@example.com"
    assert user.check_password(PASSWORD)
    assert Profile.objects.filter(user=user, language="").exists()
    assert client.session["_auth_user_id"] == str(user.pk)


def test_register_without_email(client, db):
    assert register(client).status_code == 302
    assert User.objects.get(username="lin").email == ""


def test_register_rejects_duplicate_username_in_any_case(client, player):
    response = register(client, username="MEI")
    assert response.status_code == 200
    assert "Someone already plays as “MEI”: choose another name." in response.text
    assert User.objects.filter(username__iexact="mei").count() == 1


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("short1", "Too short: use at least 8 characters."),
        ("password123", "Many people use this password, so it is guessed first: choose another."),
        ("83729461027", "Digits alone are easy to guess: add some letters."),
    ],
)
def test_register_rejects_weak_password(client, db, password, message):
    response = register(client, password=password)
    assert response.status_code == 200
    assert message in response.text
    assert not User.objects.filter(username="lin").exists()


def test_register_rejects_mismatched_passwords(client, db):
    data = {"username": "lin", "password1": PASSWORD, "password2": PASSWORD + "x"}
    response = client.post(reverse("register"), data)
    assert response.status_code == 200
    assert not User.objects.filter(username="lin").exists()


def test_register_page_redirects_when_logged_in(client, player):
    client.force_login(player)
    assert client.get(reverse("register")).status_code == 302


# Log in and out


def test_login_and_logout(client, player):
    response = client.post(reverse("login"), {"username": "mei", "password": PASSWORD})
    assert response.status_code == 302 and response.url == reverse("lobby")
    assert client.session["_auth_user_id"] == str(player.pk)
    page = client.get(reverse("profile", args=["mei"]))
    assert 'action="/accounts/logout/"' in page.text

    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_login_wrong_password_shows_error(client, player):
    response = client.post(reverse("login"), {"username": "mei", "password": "nope"})
    assert response.status_code == 200
    assert "That name and password do not match an account." in response.text
    assert "_auth_user_id" not in client.session


def test_login_follows_safe_next(client, player):
    target = reverse("profile", args=["mei"])
    response = client.post(reverse("login"), {"username": "mei", "password": PASSWORD, "next": target})
    assert response.url == target


def test_logout_by_get_is_refused(client, player):
    client.force_login(player)
    assert client.get(reverse("logout")).status_code == 405
    assert "_auth_user_id" in client.session


# Password change


def test_password_change(client, player):
    client.force_login(player)
    assert client.get(reverse("password_change")).status_code == 200
    data = {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    response = client.post(reverse("password_change"), data)
    assert response.status_code == 302 and response.url == reverse("password_change_done")
    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)
    assert "_auth_user_id" in client.session  # the session survives the change


def test_password_change_needs_the_old_password(client, player):
    client.force_login(player)
    data = {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    assert client.post(reverse("password_change"), data).status_code == 200
    player.refresh_from_db()
    assert player.check_password(PASSWORD)


def test_password_change_requires_login(client, db):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


# Password reset by e-mail


def test_password_reset_email_and_link(client, player, settings, mailoutbox):
    response = client.post(reverse("password_reset"), {"email": "mei@example.com"})
    assert response.status_code == 302 and response.url == reverse("password_reset_done")
    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == ["mei@example.com"]
    assert "Reset your password" in mail.subject

    link = re.search(r"https?://testserver(/accounts/password/reset/\S+/)", mail.body).group(1)
    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200 and "Choose a new password" in form_page.text
    set_url = form_page.redirect_chain[-1][0]
    response = client.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302 and response.url == reverse("password_reset_complete")
    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)

    reused = client.get(link, follow=True)
    assert "This link does not work" in reused.text


def test_password_reset_unknown_email_sends_nothing(client, player, settings, mailoutbox):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert response.status_code == 302  # the same answer: no account enumeration
    assert mailoutbox == []


# Profile and settings


def test_profile_page_is_public_with_stats_placeholder(client, player):
    response = client.get(reverse("profile", args=["mei"]))
    assert response.status_code == 200
    assert response.context["profile_user"] == player
    assert 'id="profile-stats"' in response.text
    assert reverse("account_settings") not in response.text  # not your own profile


def test_own_profile_links_settings(client, player):
    client.force_login(player)
    response = client.get(reverse("profile", args=["mei"]))
    assert reverse("account_settings") in response.text


def test_profile_of_unknown_or_inactive_user_is_404(client, player):
    assert client.get(reverse("profile", args=["ghost"])).status_code == 404
    player.is_active = False
    player.save()
    assert client.get(reverse("profile", args=["mei"])).status_code == 404


def test_settings_saves_language_and_email(client, player):
    client.force_login(player)
    response = client.post(reverse("account_settings"), {"language": "zh-hans", "email": "m@example.org"})
    assert response.status_code == 302
    assert response.cookies["django_language"].value == "zh-hans"
    player.refresh_from_db()
    assert player.email == "m@example.org"
    assert player.profile.language == "zh-hans"


def test_settings_browser_default_forgets_the_cookie(client, player):
    client.force_login(player)
    client.post(reverse("account_settings"), {"language": "zh-hans", "email": ""})
    response = client.post(reverse("account_settings"), {"language": "", "email": ""})
    assert response.cookies["django_language"].value == ""  # deleted
    player.profile.refresh_from_db()
    assert player.profile.language == ""


def test_settings_rejects_unsupported_language(client, player):
    client.force_login(player)
    response = client.post(reverse("account_settings"), {"language": "fr", "email": ""})
    assert response.status_code == 200
    assert not Profile.objects.filter(user=player, language="fr").exists()
