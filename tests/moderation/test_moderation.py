"""Moderation through the real parts: live websocket clients (real ASGI app, auth, channel
layer) are told why and disconnected when a room is closed, a player kicked or a user
banned, and cannot come back; the write path refuses moderation from anyone else."""

import json

import pytest
from asgiref.sync import sync_to_async
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from games import chat
from games.engine import Refusal
from games.models import ChatMessage, Match, Seat, Table, TableEvent
from games.moderation import tables as moderation
from games.moderation import users as user_moderation
from games.moderation.models import Kick, ModerationLog
from games.runtime import writer
from games.runtime.commands import Issuer
from tests.conftest import (
    WsClient,
    make_moderator,
    make_table,
    make_user,
    session_cookie,
    ws_client,
)

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a-long-test-pass-1"


@sync_to_async
def setup_table(*, playing=False, allow_bots=True):
    players = [make_user(name) for name in ("north", "east", "south", "west")]
    spectator, moderator = make_user("watcher"), make_moderator()
    table = make_table(players[0], players=players, allow_bots=allow_bots)
    cache.delete_many([chat.chat_rate_key(user) for user in (*players, spectator)])
    if playing:
        writer.table_act(
            table_id=table.pk, action={"type": "start_match"}, expected_version=table.version, user=players[0]
        )
    return Table.objects.get(pk=table.pk), players, spectator, moderator


async def closed_with(client, timeout=10.0):
    """Read until the server closes the socket: (JSON messages before, close code)."""
    messages = []
    while True:
        output = await client.communicator.receive_output(timeout)
        if output["type"] == "websocket.close":
            return messages, output.get("code")
        messages.append(json.loads(output["text"]))


async def assert_told_and_closed(client, reason):
    messages, code = await closed_with(client)
    assert code == 4003
    assert messages and messages[-1]["type"] == "closed", messages[-3:]
    assert reason in messages[-1]["message"]


async def refused_connect(path, user, cookie=None):
    cookie = cookie if cookie is not None else await sync_to_async(session_cookie)(user)
    client = WsClient(path, user=user, cookie=cookie)
    connected, code = await client.connect()
    assert not connected
    return code


def table_path(table):
    return f"/ws/table/{table.pk}/"


def chat_path(table):
    return f"/ws/table/{table.pk}/chat/"


async def test_closing_a_room_tells_everyone_why_disconnects_them_and_aborts_the_match(fast_clock):
    table, players, spectator, moderator = await setup_table(playing=True)
    seated = [await ws_client(table_path(table), user) for user in players]
    watcher = await ws_client(table_path(table), spectator)
    watcher_chat = await ws_client(chat_path(table), spectator)
    reason = "cheating ring, see report 12"

    await sync_to_async(moderation.table_close)(moderator=moderator, table_id=table.pk, reason=reason)

    for client in (*seated, watcher, watcher_chat):
        await assert_told_and_closed(client, reason)
    table = await sync_to_async(Table.objects.get)(pk=table.pk)
    assert table.status == Table.Status.CLOSED and table.closed_reason == reason
    match = await sync_to_async(Match.objects.get)(table=table)  # kept in history, marked
    assert match.aborted and match.abort_reason == reason and match.finished_at is not None
    last = await sync_to_async(lambda: TableEvent.objects.filter(table=table).order_by("-seq").first())()
    assert last.action == {"type": "close_table", "reason": reason}
    assert last.source == "moderator" and last.actor_id == moderator.pk and last.seq == table.version
    # Nobody gets back in: table socket, chat socket, page.
    for user in (players[0], spectator):
        assert await refused_connect(table_path(table), user) == 4403
        assert await refused_connect(chat_path(table), user) == 4403


async def test_kicked_player_is_disconnected_at_once_a_bot_takes_the_seat_and_others_play_on(fast_clock):
    table, players, _spectator, moderator = await setup_table(playing=True)
    clients = [await ws_client(table_path(table), user) for user in players]
    east_chat = await ws_client(chat_path(table), players[1])
    north_chat = await ws_client(chat_path(table), players[0])
    for client in (*clients, east_chat, north_chat):
        await client.drain()
    reason = "abusive language"

    await sync_to_async(moderation.seat_kick)(
        moderator=moderator, table_id=table.pk, user_id=players[1].pk, reason=reason
    )

    await assert_told_and_closed(clients[1], reason)
    await assert_told_and_closed(east_chat, reason)
    seat = await sync_to_async(Seat.objects.get)(table=table, position=1)
    assert seat.user_id is None and seat.bot == Seat.Bot.BASIC  # never an empty seat mid-match
    match = await sync_to_async(Match.objects.get)(table=table)
    assert not match.aborted
    for client in (clients[0], clients[2], clients[3]):  # the others are told the table changed, not closed
        await client.send({"action": "sync"})
        await client.receive_until(lambda m: m["type"] == "state")
        assert not any(m["type"] == "closed" for m in client.received)
    await north_chat.send({"action": "post", "text": "still here"})
    assert (await north_chat.receive_until(lambda m: m["type"] in ("sent", "error")))["type"] == "sent"
    # The kicked player cannot come back, to the socket, the chat or the page.
    assert await refused_connect(table_path(table), players[1]) == 4403
    assert await refused_connect(chat_path(table), players[1]) == 4403
    page = await sync_to_async(_get_as)(players[1], reverse("table", args=[table.pk]))
    assert page.status_code == 404
    entry = await sync_to_async(ModerationLog.objects.get)(action="kick")
    assert (entry.moderator_id, entry.target_user_id, entry.table_id, entry.reason) == (
        moderator.pk,
        players[1].pk,
        table.pk,
        reason,
    )
    assert entry.details["effect"] == "bot_took_seat"
    for client in (clients[0], clients[2], clients[3], north_chat):
        await client.close()


def _get_as(user, url):
    client = Client()
    client.force_login(user)
    return client.get(url)


async def test_ban_closes_every_socket_ends_sessions_and_blocks_login_and_reconnects():
    table, players, _spectator, moderator = await setup_table()
    banned = players[2]
    browser = Client()
    assert (
        await sync_to_async(browser.post)(reverse("login"), {"username": "south", "password": PASSWORD})
    ).status_code == 302
    cookie = f"sessionid={browser.cookies['sessionid'].value}".encode()
    table_socket = WsClient(table_path(table), user=banned, cookie=cookie)
    assert (await table_socket.connect())[0]
    chat_socket = WsClient(chat_path(table), user=banned, cookie=cookie)
    assert (await chat_socket.connect())[0]
    lobby_socket = WsClient("/ws/lobby/", user=banned, cookie=cookie)
    assert (await lobby_socket.connect())[0]
    reason = "spam bot"

    await sync_to_async(user_moderation.user_ban)(moderator=moderator, user=banned, reason=reason)

    await assert_told_and_closed(table_socket, reason)
    await assert_told_and_closed(chat_socket, reason)
    assert (await closed_with(lobby_socket))[1] == 4003
    # Sessions are gone: the browser is logged out, and its cookie no longer opens a socket.
    assert not await sync_to_async(_sessions_of)(banned)
    settings_page = await sync_to_async(browser.get)(reverse("account_settings"))
    assert settings_page.status_code == 302 and reverse("login") in settings_page.url
    assert await refused_connect(table_path(table), banned, cookie) == 4401
    # A fresh session (e.g. made before the ban elsewhere) is refused by the sockets too.
    assert await refused_connect(table_path(table), banned) == 4403
    assert await refused_connect(chat_path(table), banned) == 4403
    assert await refused_connect("/ws/lobby/", banned) == 4403
    # Login is refused with a clear message.
    response = await sync_to_async(Client().post)(reverse("login"), {"username": "south", "password": PASSWORD})
    assert response.status_code == 200 and "banned" in response.text and reason in response.text
    # Their seat at the waiting table is free for someone else.
    assert (await sync_to_async(Seat.objects.get)(table=table, position=2)).user_id is None


def _sessions_of(user):
    return [s for s in Session.objects.all() if s.get_decoded().get("_auth_user_id") == str(user.pk)]


async def test_a_muted_user_cannot_chat_until_unmuted():
    table, players, _spectator, moderator = await setup_table()
    client = await ws_client(chat_path(table), players[3])
    await client.receive()  # history
    await sync_to_async(user_moderation.user_mute)(moderator=moderator, user=players[3], reason="flooding")
    await client.send({"action": "post", "text": "can anyone hear me"})
    refused = await client.receive_until(lambda m: m["type"] == "error")
    assert refused["code"] == "muted" and refused["message"]
    assert not await sync_to_async(ChatMessage.objects.exists)()

    await sync_to_async(user_moderation.user_unmute)(moderator=moderator, user=players[3], reason="served")
    await client.send({"action": "post", "text": "sorry everyone"})
    assert (await client.receive_until(lambda m: m["type"] in ("sent", "error")))["type"] == "sent"
    await client.close()


async def test_a_deleted_message_disappears_from_open_chats_and_history():
    table, players, spectator, moderator = await setup_table()
    author = await ws_client(chat_path(table), players[0])
    reader = await ws_client(chat_path(table), spectator)
    await author.send({"action": "post", "text": "rude words"})
    pushed = await reader.receive_until(lambda m: m["type"] == "message")
    message = await sync_to_async(ChatMessage.objects.get)(pk=pushed["id"])

    await sync_to_async(user_moderation.chat_message_delete)(moderator=moderator, message=message, reason="rude")

    for client in (author, reader):
        assert (await client.receive_until(lambda m: m["type"] == "deleted"))["id"] == message.pk
    message = await sync_to_async(ChatMessage.objects.get)(pk=message.pk)
    assert message.deleted and message.deleted_by_id == moderator.pk  # kept, hidden
    assert await sync_to_async(chat.chat_recent)(table=table) == []
    later = await ws_client(chat_path(table), players[1])
    assert "rude words" not in (await later.receive())["html"]
    for client in (author, reader, later):
        await client.close()


async def test_players_cannot_send_moderation_actions_over_the_socket(fast_clock):
    table, players, _spectator, _moderator = await setup_table(playing=True)
    owner = await ws_client(table_path(table), players[0])
    await owner.drain()
    before = await sync_to_async(lambda: TableEvent.objects.filter(table=table).count())()
    for action in ({"action": "close_table", "reason": "x"}, {"action": "kick", "user": players[1].pk, "reason": "x"}):
        table = await sync_to_async(Table.objects.get)(pk=table.pk)
        await owner.send({**action, "version": table.version})
        error = await owner.receive_until(lambda m: m["type"] == "error")
        assert error["code"] == "unknown_action"
    table = await sync_to_async(Table.objects.get)(pk=table.pk)
    assert table.status == Table.Status.PLAYING
    assert not await sync_to_async(Kick.objects.exists)()
    after_kinds = await sync_to_async(
        lambda: list(TableEvent.objects.filter(table=table).values_list("action__type", flat=True))
    )()
    assert len(after_kinds) >= before and not {"close_table", "kick"} & set(after_kinds)
    await owner.close()


def _act(table, action, user, source):
    return writer.table_act(table_id=table.pk, action=action, expected_version=None, user=user, issuer=Issuer(source))


def test_the_write_path_refuses_moderation_from_any_other_source(players):
    moderator = make_moderator()
    table = make_table(players[0], players=players)
    for action in ({"type": "close_table", "reason": "x"}, {"type": "kick", "user": players[1].pk, "reason": "x"}):
        for user, source in (
            (players[0], "player"),
            (moderator, "player"),
            (None, "clock"),
            (None, "bot"),
            (players[0], "moderator"),
        ):  # the last: a source of "moderator" without the permission
            with pytest.raises(Refusal) as refused:
                _act(table, action, user, source)
            assert refused.value.code in ("not_allowed", "login_required")
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING and table.version == 0
    assert not ModerationLog.objects.exists()
    with pytest.raises(PermissionDenied):
        moderation.table_close(moderator=players[0], table_id=table.pk, reason="x")
    with pytest.raises(PermissionDenied):
        user_moderation.user_ban(moderator=players[0], user=players[1], reason="x")


async def test_each_socket_is_told_in_its_readers_language():
    """The notice travels as a template; each socket translates it (needs the compiled catalog)."""
    from accounts.services import profile_set_language

    table, players, _spectator, moderator = await setup_table()
    await sync_to_async(profile_set_language)(user=players[0], language="zh-hans")
    chinese = await ws_client(table_path(table), players[0])
    english = await ws_client(table_path(table), players[1])

    await sync_to_async(moderation.table_close)(moderator=moderator, table_id=table.pk, reason="R-42")

    told_zh, _ = await closed_with(chinese)
    told_en, _ = await closed_with(english)
    assert told_zh[-1]["message"] == "管理员关闭了这张牌桌：R-42"
    assert told_en[-1]["message"] == "A moderator closed this table: R-42"
