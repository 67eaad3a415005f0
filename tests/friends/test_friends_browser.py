"""Two friends in two browsers: one invites from the table page, the other sees the
invitation arrive live on whatever page they are on and sits down with one click."""

import pytest

from games.friends.models import Follow
from games.models import Seat, Table
from tests.browser import (
    PASSWORD,
    SHOTS,
    log_in,
    screenshot,
)
from tests.conftest import make_table, make_user
from tests.web.test_pages_browser import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def friends(server):
    ann, bob = make_user("ann", PASSWORD), make_user("bob", PASSWORD)
    Follow.objects.create(follower=ann, followed=bob)
    Follow.objects.create(follower=bob, followed=ann)
    table = make_table(ann, players=[ann, None, None, None], turn_limit_s=30)
    Table.objects.filter(pk=table.pk).update(name="Ann's Friday table")
    return ann, bob, table


def test_an_invitation_between_two_browsers(server, friends, browser):
    _ann, bob, table = friends
    bob_context = browser.new_context(**PHONE)
    bob_page = log_in(bob_context, server, "bob")
    bob_page.goto(server + "/leaderboard/")  # any page: the invitation comes to it
    ann_context = browser.new_context(viewport={"width": 1366, "height": 768})
    ann_page = log_in(ann_context, server, "ann")
    ann_page.goto(f"{server}/tables/{table.pk}/")
    ann_page.locator(".table-options summary").click()  # the invitation is among the table's options
    ann_page.select_option("#invite-friend", str(bob.pk))
    ann_page.get_by_role("button", name="Invite").click()
    ann_page.wait_for_selector(".message--success")

    invitation = bob_page.locator("#invitations .invitation")
    invitation.wait_for()
    assert "ann" in invitation.inner_text() and "Ann's Friday table" in invitation.inner_text()
    screenshot(bob_page, SHOTS / "invitation-phone-en.png", full_page=True)
    invitation.get_by_role("button", name="Sit down").tap()
    bob_page.wait_for_url(f"{server}/tables/{table.pk}/")
    bob_page.wait_for_selector("#conn.online")
    assert Seat.objects.get(table=table, position=1).user_id == bob.pk
    bob_context.close()
    ann_context.close()
