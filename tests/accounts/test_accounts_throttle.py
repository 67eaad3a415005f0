"""accounts.throttle: counting failures per username and per IP in the shared cache,
and the login view refusing attempts while throttled."""

import os
import subprocess
import sys
import time

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.throttle import login_failure_record, login_throttle_clear, login_throttle_wait

PASSWORD = "felt-table-7-kitty"


@pytest.fixture
def player(db):
    return get_user_model().objects.create_user(username="mei", password=PASSWORD)


def attempt(client, username, password, ip):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip)


def fail_times(n, *, username="mei", ip="10.0.0.1"):
    for _ in range(n):
        login_failure_record(username=username, ip=ip)


def test_four_failures_do_not_throttle():
    fail_times(4)
    assert login_throttle_wait(username="mei", ip="10.0.0.1") == 0


def test_five_failures_throttle_the_username_from_any_ip():
    for i in range(5):
        login_failure_record(username="mei", ip=f"10.0.1.{i}")
    wait = login_throttle_wait(username="mei", ip="10.9.9.9")
    assert 14 * 60 < wait <= 15 * 60


def test_username_counter_ignores_case():
    fail_times(5, username="Mei")
    assert login_throttle_wait(username="mei", ip="10.9.9.9") > 0


def test_five_failures_throttle_the_ip_for_any_username():
    for i in range(5):
        login_failure_record(username=f"guess{i}", ip="10.0.0.2")
    assert login_throttle_wait(username="someone-else", ip="10.0.0.2") > 0
    assert login_throttle_wait(username="someone-else", ip="10.0.0.3") == 0


def test_clear_forgets_the_username_but_not_the_ip():
    fail_times(5, ip="10.0.0.4")
    login_throttle_clear(username="mei")
    assert login_throttle_wait(username="mei", ip="10.0.0.99") == 0
    assert login_throttle_wait(username="other", ip="10.0.0.4") > 0


def test_window_passes(settings):
    settings.LOGIN_THROTTLE_WINDOW = 1
    fail_times(5)
    assert login_throttle_wait(username="mei", ip="10.0.0.1") > 0
    time.sleep(1.3)
    assert login_throttle_wait(username="mei", ip="10.0.0.1") == 0


def test_login_view_refuses_the_sixth_attempt_even_with_the_right_password(client, player):
    for i in range(5):
        response = attempt(client, "mei", "wrong", f"10.1.0.{i}")
        assert response.status_code == 200
        assert "Too many failed login attempts" not in response.text
    response = attempt(client, "mei", PASSWORD, "10.1.0.77")
    assert response.status_code == 200
    assert "Too many failed login attempts. Please try again in 15 minutes." in response.text
    assert "_auth_user_id" not in client.session


def test_login_view_throttles_by_ip(client, player):
    for i in range(5):
        attempt(client, f"nobody{i}", "wrong", "10.2.0.1")
    response = attempt(client, "mei", PASSWORD, "10.2.0.1")
    assert "Too many failed login attempts" in response.text
    response = attempt(client, "mei", PASSWORD, "10.2.0.2")
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(player.pk)


def test_login_works_again_after_the_window(client, player, settings):
    settings.LOGIN_THROTTLE_WINDOW = 1
    for _i in range(5):
        attempt(client, "mei", "wrong", "10.3.0.1")
    assert "Too many failed" in attempt(client, "mei", PASSWORD, "10.3.0.1").text
    time.sleep(1.3)
    assert attempt(client, "mei", PASSWORD, "10.3.0.1").status_code == 302


def test_successful_login_resets_the_username_count(client, player):
    for i in range(4):
        attempt(client, "mei", "wrong", f"10.4.0.{i}")
    assert attempt(client, "mei", PASSWORD, "10.4.1.1").status_code == 302
    client.logout()
    for i in range(4):
        attempt(client, "mei", "wrong", f"10.4.2.{i}")
    assert attempt(client, "mei", PASSWORD, "10.4.3.1").status_code == 302


def test_an_incomplete_form_is_not_counted(client, player):
    for _ in range(6):
        client.post(reverse("login"), {"username": "mei", "password": ""}, REMOTE_ADDR="10.5.0.1")
    assert login_throttle_wait(username="mei", ip="10.5.0.1") == 0


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="the per-process LocMem cache is not shared")
def test_failures_recorded_by_another_process_count(settings):
    """Several server processes share the counters through Redis."""
    prefix = settings.CACHES["default"]["KEY_PREFIX"]
    script = (
        "import django; django.setup()\n"
        "from django.conf import settings\n"
        f"settings.CACHES['default']['KEY_PREFIX'] = {prefix!r}\n"
        "from accounts.throttle import login_failure_record\n"
        "for _ in range(5): login_failure_record(username='mei', ip='10.6.0.1')\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    subprocess.run([sys.executable, "-c", script], check=True, env=env, cwd=settings.BASE_DIR, timeout=60)
    assert login_throttle_wait(username="mei", ip="10.99.0.1") > 0


def test_admin_login_is_throttled_too(client, db):
    get_user_model().objects.create_superuser(username="boss", password=PASSWORD)
    url = reverse("admin:login")
    for i in range(5):
        client.post(url, {"username": "boss", "password": "wrong"}, REMOTE_ADDR=f"10.7.0.{i}")
    response = client.post(url, {"username": "boss", "password": PASSWORD}, REMOTE_ADDR="10.7.1.1")
    assert "Too many failed login attempts" in response.text
    assert "_auth_user_id" not in client.session
