"""accounts/management/commands/ensure_demo_users.py"""

from io import StringIO

from django.contrib.auth import get_user_model
from django.core.management import call_command

User = get_user_model()
DEMO = ["alice", "bob", "carol", "dave"]


def run():
    out = StringIO()
    call_command("ensure_demo_users", stdout=out)
    return out.getvalue()


def test_creates_demo_users_when_debug(db, settings, client):
    settings.DEBUG = True
    assert run().strip() == "Created demo users: alice, bob, carol, dave"
    assert sorted(User.objects.filter(username__in=DEMO).values_list("username", flat=True)) == DEMO
    assert client.login(username="carol", password="double-up-demo")


def test_second_run_is_quiet_and_creates_nothing(db, settings):
    settings.DEBUG = True
    run()
    assert run() == ""
    assert User.objects.filter(username__in=DEMO).count() == 4


def test_does_nothing_without_debug(db, settings):
    settings.DEBUG = False
    assert "DEBUG is off" in run()
    assert not User.objects.filter(username__in=DEMO).exists()
