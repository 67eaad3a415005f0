"""Requests that used to fail badly: NUL bytes in URLs, unthrottled reset mails, and a
non-staff user's right password at the admin counted as a failed login."""

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from accounts.throttle import login_throttle_wait

PASSWORD = "felt-table-7-kitty"


@pytest.fixture
def player(db):
    return get_user_model().objects.create_user(username="mei", password=PASSWORD, email="mei@example.com")


@pytest.mark.parametrize(
    "url", ["/accounts/u/%00/", "/accounts/u/a%00b/", "/report/user/%00/", "/moderation/users/%00/"]
)
def test_a_nul_byte_in_a_url_is_not_found(client, player, url):
    client.force_login(player)
    assert client.get(url).status_code == 404


def test_password_reset_mails_one_address_at_most_three_times_an_hour(client, player):
    answers = [
        client.post(reverse("password_reset"), {"email": "mei@example.com"}, REMOTE_ADDR=f"10.1.0.{i}")
        for i in range(12)
    ]
    assert len(mail.outbox) == 3
    assert [a.status_code for a in answers[:3]] == [302] * 3
    refused = answers[3]
    assert refused.status_code == 200 and "Too many password-reset requests" in refused.content.decode()


def test_one_client_may_ask_for_ten_resets_an_hour_over_all_addresses(client, player):
    for i in range(10):
        client.post(reverse("password_reset"), {"email": f"someone{i}@example.com"}, REMOTE_ADDR="10.2.0.1")
    client.post(reverse("password_reset"), {"email": "mei@example.com"}, REMOTE_ADDR="10.2.0.1")
    assert mail.outbox == []
    client.post(reverse("password_reset"), {"email": "mei@example.com"}, REMOTE_ADDR="10.2.0.2")
    assert len(mail.outbox) == 1


def test_a_non_staff_users_right_password_at_the_admin_is_not_a_failed_login(client, player):
    for _ in range(6):
        answer = client.post(reverse("admin:login"), {"username": "mei", "password": PASSWORD}, REMOTE_ADDR="10.3.0.1")
        assert answer.status_code == 200  # refused: not staff
    assert login_throttle_wait(username="mei", ip="10.3.0.9") == 0
    assert (
        client.post(reverse("login"), {"username": "mei", "password": PASSWORD}, REMOTE_ADDR="10.3.0.1").status_code
        == 302
    )


def test_wrong_passwords_at_the_admin_still_count(client, player):
    for _ in range(5):
        client.post(reverse("admin:login"), {"username": "mei", "password": "wrong"}, REMOTE_ADDR="10.4.0.1")
    assert login_throttle_wait(username="mei", ip="10.4.0.9") > 0
