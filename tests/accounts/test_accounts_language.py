"""Language persistence: the header switch (Django's set_language) is remembered on the
profile by accounts.middleware, and login restores it (accounts.views.LoginView).
Chinese pages need the compiled catalog (.ci/setup runs compilemessages)."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.models import Profile
from accounts.services import user_register

PASSWORD = "felt-table-7-kitty"


@pytest.fixture
def player(db):
    return user_register(username="mei", password=PASSWORD)


def switch(client, language, next_url="/accounts/login/"):
    return client.post(reverse("set_language"), {"language": language, "next": next_url})


def login(client):
    return client.post(reverse("login"), {"username": "mei", "password": PASSWORD})


def test_switch_url_is_djangos_set_language():
    assert reverse("set_language") == "/i18n/setlang/"


def test_switch_while_logged_in_is_stored_on_the_profile(client, player):
    client.force_login(player)
    response = switch(client, "zh-hans")
    assert response.cookies["django_language"].value == "zh-hans"
    assert Profile.objects.get(user=player).language == "zh-hans"
    switch(client, "en")
    assert Profile.objects.get(user=player).language == "en"


def test_switch_creates_a_missing_profile(client, db):
    user = get_user_model().objects.create_user(username="admin-made", password=PASSWORD)
    client.force_login(user)
    switch(client, "zh-hans")
    assert Profile.objects.get(user=user).language == "zh-hans"


def test_switch_while_anonymous_stores_nothing(client, player):
    response = switch(client, "zh-hans")
    assert response.cookies["django_language"].value == "zh-hans"
    assert Profile.objects.get(user=player).language == ""


def test_switch_to_a_language_we_do_not_offer_is_not_stored(client, player):
    client.force_login(player)
    switch(client, "zh-hans")
    switch(client, "fr")  # Django has a French catalog, so set_language sets the cookie
    assert Profile.objects.get(user=player).language == "zh-hans"


def test_login_applies_the_stored_language(client, player):
    client.force_login(player)
    switch(client, "zh-hans")
    client.post(reverse("logout"))
    client.cookies.pop("django_language")  # a fresh browser, or another device

    response = login(client)
    assert response.status_code == 302
    assert response.cookies["django_language"].value == "zh-hans"
    page = client.get(reverse("profile", args=["mei"]))
    assert page.context["LANGUAGE_CODE"] == "zh-hans"


def test_login_replaces_a_different_browser_language(client, player):
    Profile.objects.filter(user=player).update(language="en")
    client.cookies["django_language"] = "zh-hans"
    response = login(client)
    assert response.cookies["django_language"].value == "en"


def test_login_without_a_stored_language_keeps_the_browser_choice(client, player):
    response = login(client)
    assert response.status_code == 302
    assert "django_language" not in response.cookies
    page = client.get(reverse("profile", args=["mei"]), HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9")
    assert page.context["LANGUAGE_CODE"] == "zh-hans"


def test_browser_language_is_the_default(client, db):
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9,en;q=0.5")
    assert '<html lang="zh-hans">' in page.text
    assert "忘记密码？" in page.text
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")
    assert '<html lang="en">' in page.text
    assert "Forgot your password?" in page.text


def test_page_renders_in_chinese_for_a_user_who_chose_chinese(client, player):
    Profile.objects.filter(user=player).update(language="zh-hans")
    login(client)  # sets the cookie from the profile
    page = client.get(reverse("profile", args=["mei"]), HTTP_ACCEPT_LANGUAGE="en")
    text = page.text
    assert '<html lang="zh-hans">' in text
    for chinese in ("大厅", "个人主页", "退出登录", "战绩统计", "设置", "修改密码"):
        assert chinese in text, f"{chinese!r} missing: is the catalog compiled (manage.py compilemessages)?"
    assert "Log out" not in text


def test_throttle_message_in_chinese(client, player, settings):
    settings.LOGIN_THROTTLE_LIMIT = 1
    client.cookies["django_language"] = "zh-hans"
    client.post(reverse("login"), {"username": "mei", "password": "wrong"})
    response = client.post(reverse("login"), {"username": "mei", "password": PASSWORD})
    assert "登录失败次数过多，请 15 分钟后再试。" in response.text


@pytest.mark.parametrize(("account", "device"), [("zh-hans", "en"), ("en", "zh-hans")])
def test_the_account_language_wins_over_another_devices_cookie_and_browser(client, player, account, device):
    """A device that logged in before the account's language changed still carries the old
    cookie; every page follows the account, as the table's socket does."""
    client.force_login(player)
    client.cookies["django_language"] = device
    Profile.objects.filter(user=player).update(language=account)  # chosen on the other device
    page = client.get(reverse("profile", args=["mei"]), HTTP_ACCEPT_LANGUAGE=device)
    assert f'<html lang="{account}">' in page.text and page["Content-Language"] == account
    client.post(reverse("logout"))
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE=device)  # logged out: the device's again
    assert f'<html lang="{device}">' in page.text
