"""Friends and invitations (games/friends/, the lobby socket): follow, friends with
presence, invitations live on the lobby socket, accept (seated through the write path),
decline, expiry, blocking; bad input changes nothing."""

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import chat
from games.engine import Refusal
from games.friends import service
from games.friends.models import Block, Follow, Invitation
from games.friends.selectors import friends_with_presence, pending_invitations
from games.models import Seat, Table, TableEvent
from games.moderation.models import Ban, Mute
from games.runtime import writer
from tests.conftest import make_moderator, make_table, make_user, ws_client

# --- helpers ---------------------------------------------------------------------------


def _befriend(a, b):
    Follow.objects.get_or_create(follower=a, followed=b)
    Follow.objects.get_or_create(follower=b, followed=a)


def _world():
    ann, bob, cat, dan = (make_user(n) for n in ("ann", "bob", "cat", "dan"))
    _befriend(ann, bob)
    _befriend(ann, cat)
    table = make_table(ann, players=[ann, None, None, None], turn_limit_s=30)
    cache.delete(f"invitations:{ann.pk}")
    return ann, bob, cat, dan, table


def _snapshot(table):
    """Everything an invitation or its answer could change."""
    return (
        list(Seat.objects.filter(table=table).order_by("position").values_list("user_id", "bot")),
        list(Invitation.objects.order_by("pk").values_list("pk", "status", "seat")),
        Table.objects.get(pk=table.pk).version,
    )


async def _friend_row(user, until, attempts=50):
    """The user's first friend's row, once `until(row)` (a bounded wait)."""
    for _ in range(attempts):
        row = (await sync_to_async(friends_with_presence)(user=user))[0]
        if until(row):
            return row
        await asyncio.sleep(0.02)
    return row


async def _invitations(client):
    return await client.receive_until(lambda m: m["type"] == "invitations")


# --- following ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_follow_from_the_profile_and_friends_are_mutual_follows():
    ann, bob = make_user("ann"), make_user("bob")
    client = Client()
    client.force_login(ann)
    client.post(reverse("follow", args=["bob"]), {"follow": "1"})
    assert Follow.objects.filter(follower=ann, followed=bob).exists()
    assert friends_with_presence(user=ann) == []  # bob does not follow back yet
    page = client.get(reverse("profile", args=["bob"])).content.decode()
    assert "Unfollow" in page
    Follow.objects.create(follower=bob, followed=ann)
    assert [row["user"] for row in friends_with_presence(user=ann)] == [bob]
    assert "bob" in client.get(reverse("friends")).content.decode()
    client.post(reverse("follow", args=["bob"]), {"follow": "0"})
    assert friends_with_presence(user=ann) == []
    # No friend left: the page says how to make one (invite from a new table, or find players).
    empty = client.get(reverse("friends")).content.decode().split('data-testid="empty-state"')[1]
    assert f'href="{reverse("create_table")}"' in empty and f'href="{reverse("leaderboard")}"' in empty
    assert client.post(reverse("follow", args=["nobody"]), {"follow": "1"}).status_code == 404
    client.post(reverse("follow", args=["ann"]), {"follow": "1"})  # oneself: refused
    assert not Follow.objects.filter(follower=ann, followed=ann).exists()


def _said(response) -> str:
    """The message a POST left for the next page (the newest: unread ones pile up)."""
    from django.contrib.messages import get_messages

    return [str(message) for message in get_messages(response.wsgi_request)][-1]


@pytest.mark.django_db
def test_block_and_unblock_from_the_profile():
    ann, bob = make_user("ann"), make_user("bob")
    _befriend(ann, bob)
    invitation_table = make_table(bob, players=[bob, None, None, None], turn_limit_s=30)
    Invitation.objects.create(
        table=invitation_table, sender=bob, recipient=ann, seat=1, expires_at=timezone.now() + timedelta(minutes=2)
    )
    client = Client()
    client.force_login(ann)
    cache.delete(service.relations_key(ann))
    response = client.post(reverse("block", args=["bob"]), {"block": "1"})
    assert response.status_code == 302 and response["Location"] == reverse("profile", args=["bob"])
    assert _said(response) == "You blocked bob."
    assert Block.objects.filter(blocker=ann, blocked=bob).exists()
    assert not Follow.objects.filter(follower=ann, followed=bob).exists()  # following ends both ways
    assert not Follow.objects.filter(follower=bob, followed=ann).exists()
    assert Invitation.objects.get().status == Invitation.Status.DECLINED
    page = client.get(reverse("profile", args=["bob"])).content.decode()
    assert "Unblock" in page and 'data-testid="follow"' not in page  # no following whom one blocks
    response = client.post(reverse("block", args=["bob"]), {"block": "0"})
    assert _said(response) == "You unblocked bob." and not Block.objects.exists()
    assert 'data-testid="follow"' in client.get(reverse("profile", args=["bob"])).content.decode()


@pytest.mark.django_db
def test_the_profile_says_who_follows_whom():
    ann, bob = make_user("ann"), make_user("bob")
    client = Client()
    client.force_login(ann)
    page = client.get(reverse("profile", args=["bob"])).content.decode()
    assert ">Follow<" in page and "Follows you" not in page and ">Block<" in page
    Follow.objects.create(follower=bob, followed=ann)
    assert "Follows you" in client.get(reverse("profile", args=["bob"])).content.decode()
    Follow.objects.create(follower=ann, followed=bob)
    page = client.get(reverse("profile", args=["bob"])).content.decode()
    assert ">Unfollow<" in page and ">Friends<" in page
    own = client.get(reverse("profile", args=["ann"])).content.decode()  # no relation to oneself
    assert 'data-testid="follow"' not in own and "Follows you" not in own


@pytest.mark.django_db
def test_blocking_nobody_oneself_or_by_get_changes_nothing():
    ann = make_user("ann")
    client = Client()
    assert client.post(reverse("block", args=["ann"]), {"block": "1"}).status_code == 302  # to the login page
    client.force_login(ann)
    cache.delete(service.relations_key(ann))
    assert client.post(reverse("block", args=["nobody"]), {"block": "1"}).status_code == 404
    assert client.get(reverse("block", args=["ann"])).status_code == 405
    response = client.post(reverse("block", args=["ann"]), {"block": "1"})
    assert _said(response) == "You cannot do that to yourself."
    assert not Block.objects.exists()


@pytest.mark.django_db
def test_following_and_blocking_are_flood_limited(monkeypatch):
    monkeypatch.setattr(service, "RELATION_CHANGES_PER_MINUTE", 3)
    ann, bob, _cat = make_user("ann"), make_user("bob"), make_user("cat")
    client = Client()
    client.force_login(ann)
    client.cookies["django_language"] = "zh-hans"
    cache.delete(service.relations_key(ann))
    client.post(reverse("follow", args=["bob"]), {"follow": "1"})
    client.post(reverse("follow", args=["bob"]), {"follow": "0"})
    client.post(reverse("block", args=["cat"]), {"block": "1"})
    before = (list(Follow.objects.values_list("pk")), list(Block.objects.values_list("pk")))
    response = client.post(reverse("follow", args=["cat"]), {"follow": "1"})
    assert _said(response) == "你短时间内关注或屏蔽的玩家太多了，请等一分钟。"
    response = client.post(reverse("block", args=["cat"]), {"block": "0"})
    assert "请等一分钟" in _said(response)
    assert (list(Follow.objects.values_list("pk")), list(Block.objects.values_list("pk"))) == before
    with pytest.raises(Refusal) as refused:
        service.follow_set(user=ann, target_id=bob.pk, following=True)
    assert refused.value.code == "too_many" and not Follow.objects.exists()
    cache.delete(service.relations_key(ann))  # a minute later
    service.follow_set(user=ann, target_id=bob.pk, following=True)
    assert Follow.objects.filter(follower=ann, followed=bob).exists()


@pytest.mark.django_db(transaction=True)
async def test_friends_see_who_is_online_and_at_which_table():
    ann, bob, _cat, _dan, table = await sync_to_async(_world)()
    assert (await sync_to_async(friends_with_presence)(user=bob))[0]["online"] is False
    at_table = await ws_client(f"/ws/table/{table.pk}/", ann)
    await at_table.receive()
    row = await _friend_row(bob, lambda row: row["online"])  # the table socket notes it in a task
    assert row["online"] and row["table"] == table
    await at_table.close()
    row = (await sync_to_async(friends_with_presence)(user=bob))[0]
    assert not row["online"]
    elsewhere = await ws_client("/ws/lobby/?only=invitations", ann)
    await elsewhere.drain()
    row = (await sync_to_async(friends_with_presence)(user=bob))[0]
    assert row["online"] and row["table"] is None
    await elsewhere.close()


# --- invitations over the lobby socket ------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_an_invitation_arrives_live_in_the_lobby_and_on_any_page_and_accepting_seats_the_friend():
    ann, bob, _cat, _dan, table = await sync_to_async(_world)()
    lobby = await ws_client("/ws/lobby/", bob)
    assert (await lobby.receive())["type"] == "lobby"
    other_page = await ws_client("/ws/lobby/?only=invitations", bob)
    await other_page.drain()
    assert all(m["type"] != "lobby" for m in other_page.received)  # no table list off the lobby

    client = Client()
    await sync_to_async(client.force_login)(ann)
    await sync_to_async(client.post)(reverse("invite_friend", args=[table.pk]), {"friend": bob.pk})
    invitation = await sync_to_async(Invitation.objects.get)(recipient=bob)
    for socket in (lobby, other_page):
        pushed = await _invitations(socket)
        assert f'data-invitation="{invitation.pk}"' in pushed["html"] and "ann" in pushed["html"]

    await other_page.send({"action": "accept", "invitation": invitation.pk})
    seated = await other_page.receive_until(lambda m: m["type"] == "seated")
    assert seated["url"] == reverse("table", args=[table.pk])
    seat = await sync_to_async(Seat.objects.get)(table=table, position=invitation.seat)
    assert seat.user_id == bob.pk
    assert (await sync_to_async(Invitation.objects.get)(pk=invitation.pk)).status == Invitation.Status.ACCEPTED
    logged = await sync_to_async(TableEvent.objects.filter(table=table).order_by("-seq").first)()
    assert logged.action["type"] == "accept_invitation" and logged.source == "player" and logged.actor_id == bob.pk
    cleared = await _invitations(lobby)  # the answered invitation leaves every page
    assert "data-invitation" not in cleared["html"]
    await lobby.close()
    await other_page.close()


@pytest.mark.django_db(transaction=True)
async def test_declining_and_an_expired_invitation():
    ann, bob, cat, _dan, table = await sync_to_async(_world)()
    first = await sync_to_async(service.invitation_send)(sender=ann, table_id=table.pk, recipient_id=bob.pk)
    late = await sync_to_async(service.invitation_send)(sender=ann, table_id=table.pk, recipient_id=cat.pk)
    bob_socket = await ws_client("/ws/lobby/?only=invitations", bob)
    assert f'data-invitation="{first.pk}"' in (await _invitations(bob_socket))["html"]
    await bob_socket.send({"action": "decline", "invitation": first.pk})
    assert "data-invitation" not in (await _invitations(bob_socket))["html"]
    assert (await sync_to_async(Invitation.objects.get)(pk=first.pk)).status == Invitation.Status.DECLINED

    await sync_to_async(Invitation.objects.filter(pk=late.pk).update)(expires_at=timezone.now() - timedelta(seconds=1))
    cat_socket = await ws_client("/ws/lobby/?only=invitations", cat)
    await cat_socket.drain()
    assert not any("data-invitation" in m.get("html", "") for m in cat_socket.received)  # expired: not shown
    before = await sync_to_async(_snapshot)(table)
    await cat_socket.send({"action": "accept", "invitation": late.pk})
    error = await cat_socket.receive_until(lambda m: m["type"] == "error")
    assert error["code"] == "expired"
    assert await sync_to_async(_snapshot)(table) == before
    await bob_socket.close()
    await cat_socket.close()


@pytest.mark.django_db(transaction=True)
async def test_blocking_hides_chat_and_invitations():
    ann, bob, _cat, _dan, table = await sync_to_async(_world)()
    pending = await sync_to_async(service.invitation_send)(sender=ann, table_id=table.pk, recipient_id=bob.pk)
    await sync_to_async(Seat.objects.filter(table=table, position=2).update)(user=bob)
    await sync_to_async(chat.chat_post)(table=table, user=ann, text="before the block")
    await sync_to_async(service.block_set)(user=bob, target_id=ann.pk, blocking=True)
    assert (await sync_to_async(Invitation.objects.get)(pk=pending.pk)).status == Invitation.Status.DECLINED
    assert not await sync_to_async(Follow.objects.filter(follower=bob, followed=ann).exists)()

    bob_chat = await ws_client(f"/ws/table/{table.pk}/chat/", bob)
    history = await bob_chat.receive()
    assert history["type"] == "history" and "before the block" not in history["html"]
    ann_chat = await ws_client(f"/ws/table/{table.pk}/chat/", ann)
    assert "before the block" in (await ann_chat.receive())["html"]  # only bob's view changes
    await ann_chat.send({"action": "post", "text": "can you see me"})
    await ann_chat.receive_until(lambda m: m["type"] == "message")
    await bob_chat.drain()
    assert not any(m["type"] == "message" for m in bob_chat.received)

    # ann cannot invite (nor follow) bob any more, and is not told why.
    await sync_to_async(Seat.objects.filter(table=table, position=2).update)(user=None)
    await sync_to_async(_befriend)(ann, bob)  # even as mutual follows again
    with pytest.raises(Refusal) as refused:
        await sync_to_async(service.invitation_send)(sender=ann, table_id=table.pk, recipient_id=bob.pk)
    assert refused.value.code == "cannot_invite"
    await bob_chat.close()
    await ann_chat.close()


# --- bad input: a clear refusal, nothing changed ----------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_foreign_and_malformed_invitation_ids_over_the_socket_change_nothing():
    ann, bob, cat, _dan, table = await sync_to_async(_world)()
    invitation = await sync_to_async(service.invitation_send)(sender=ann, table_id=table.pk, recipient_id=bob.pk)
    before = await sync_to_async(_snapshot)(table)
    cat_socket = await ws_client("/ws/lobby/?only=invitations", cat)
    for message in (
        {"action": "accept", "invitation": invitation.pk},  # bob's, not cat's
        {"action": "decline", "invitation": invitation.pk},
        {"action": "accept", "invitation": str(invitation.pk)},
        {"action": "accept"},
        {"action": "sit", "seat": 1},
    ):
        await cat_socket.send(message)
        error = await cat_socket.receive_until(lambda m: m["type"] == "error")
        assert error["code"] in ("no_invitation", "unknown_action") and error["message"]
    await cat_socket.send("not json")
    assert (await cat_socket.receive_until(lambda m: m["type"] == "error"))["code"] == "bad_json"
    assert await sync_to_async(_snapshot)(table) == before
    for _ in range(25):  # a flood closes the socket
        await cat_socket.send({"action": "decline", "invitation": 0})
    assert await cat_socket.receive_until(lambda m: m.get("code") == "flooded")
    assert await sync_to_async(_snapshot)(table) == before
    await cat_socket.close()


@pytest.mark.django_db
def test_invitations_that_cannot_be_sent_are_refused_with_a_reason():
    ann, bob, cat, dan, table = _world()
    moderator = make_moderator()
    before = _snapshot(table)

    def refused(code, **arguments):
        with pytest.raises(Refusal) as caught:
            service.invitation_send(**{"sender": ann, "table_id": table.pk, "recipient_id": bob.pk, **arguments})
        assert caught.value.code == code, caught.value.code
        assert _snapshot(table) == before

    refused("not_friends", recipient_id=dan.pk)
    refused("no_user", recipient_id=10**9)
    refused("no_user", recipient_id="bob")
    refused("self", recipient_id=ann.pk)
    refused("no_table", table_id=10**9)
    others = make_table(dan, players=[dan, None, None, None])
    refused("not_your_table", table_id=others.pk)
    Ban.objects.create(user=bob, moderator=moderator, reason="spam")
    refused("cannot_invite")  # banned: the same words as a block
    Ban.objects.filter(user=bob).update(lifted_at=timezone.now())
    Mute.objects.create(user=ann, moderator=moderator, reason="rude")
    refused("muted")
    Mute.objects.filter(user=ann).update(lifted_at=timezone.now())
    full = make_table(ann, players=[ann, cat, make_user("eve"), make_user("fay")])
    refused("table_full", table_id=full.pk)
    service.invitation_send(sender=ann, table_id=table.pk, recipient_id=bob.pk)
    before = _snapshot(table)
    refused("already_invited")
    cache.delete(f"invitations:{ann.pk}")
    for _ in range(service.INVITATIONS_PER_MINUTE):
        with pytest.raises(Refusal):
            service.invitation_send(sender=ann, table_id=table.pk, recipient_id=bob.pk)
    refused("too_many")


@pytest.mark.django_db
def test_accepting_when_the_table_filled_up_or_started_is_refused():
    ann, bob, cat, dan, table = _world()
    invitation = service.invitation_send(sender=ann, table_id=table.pk, recipient_id=bob.pk)
    for position, user in ((1, cat), (2, dan), (3, make_user("eve"))):
        Seat.objects.filter(table=table, position=position).update(user=user)
    before = _snapshot(table)
    with pytest.raises(Refusal) as caught:
        writer.table_act(
            table_id=table.pk,
            action={"type": "accept_invitation", "invitation": invitation.pk},
            expected_version=None,
            user=bob,
        )
    assert caught.value.code == "table_full" and _snapshot(table) == before
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=ann)
    before = _snapshot(table)
    with pytest.raises(Refusal) as caught:
        writer.table_act(
            table_id=table.pk,
            action={"type": "accept_invitation", "invitation": invitation.pk},
            expected_version=None,
            user=bob,
        )
    assert caught.value.code == "match_running" and _snapshot(table) == before
    assert pending_invitations(user=bob) == [Invitation.objects.get(pk=invitation.pk)]


@pytest.mark.django_db
def test_the_table_page_offers_friends_to_invite_and_the_invitation_is_sent():
    ann, bob, cat, _dan, table = _world()
    client = Client()
    client.force_login(ann)
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert 'class="invite-friends"' in page and f'value="{bob.pk}"' in page and f'value="{cat.pk}"' in page
    client.post(reverse("invite_friend", args=[table.pk]), {"friend": bob.pk})
    assert Invitation.objects.filter(recipient=bob, sender=ann, table=table).exists()
    client.post(reverse("invite_friend", args=[table.pk]), {"friend": "x"})  # refused, no error page
    assert Invitation.objects.count() == 1
    spectator = Client()
    spectator.force_login(cat)
    assert 'class="invite-friends"' not in spectator.get(reverse("table", args=[table.pk])).content.decode()
