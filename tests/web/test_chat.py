"""Table chat: the service (games/chat.py) and its socket (games/web/chat_consumer.py)."""

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games import chat
from games.engine import Refusal
from games.models import ChatMessage
from tests.conftest import WsClient, make_table, make_user, session_cookie, ws_client

HOSTILE = '<script>alert("x")</script><b onclick="evil()">bold</b> & co'


def _forget_rates(*users):
    """The rate limit lives in the shared cache: start each test with empty windows."""
    cache.delete_many([chat.chat_rate_key(user) for user in users])


def chat_path(table, invite=None):
    return f"/ws/table/{table.pk}/chat/" + (f"?invite={invite}" if invite else "")


@sync_to_async
def _setup(private=False):
    players = [make_user(name) for name in ("north", "east", "south", "west")]
    spectator = make_user("watcher")
    table = make_table(players[0], players=players, is_private=private)
    _forget_rates(*players, spectator)
    return table, players, spectator


async def _open(table, user):
    client = await ws_client(chat_path(table), user)
    first = await client.receive()
    assert first["type"] == "history"
    return client


# --- over the real websocket -----------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_player_and_spectator_chat_live_both_ways():
    table, players, spectator = await _setup()
    north = await _open(table, players[0])
    watcher = await _open(table, spectator)

    await north.send({"action": "post", "text": "good luck, have fun"})
    assert (await north.receive_until(lambda m: m["type"] == "sent"))["type"] == "sent"
    for client in (north, watcher):
        pushed = await client.receive_until(lambda m: m["type"] == "message")
        assert "good luck, have fun" in pushed["html"] and "north" in pushed["html"]

    await watcher.send({"action": "post", "text": "spectating, nice lead"})
    for client in (north, watcher):
        pushed = await client.receive_until(lambda m: m["type"] == "message")
        assert "spectating, nice lead" in pushed["html"] and "watcher" in pushed["html"]

    stored = await sync_to_async(
        lambda: list(ChatMessage.objects.order_by("pk").values_list("user__username", "text"))
    )()
    assert stored == [("north", "good luck, have fun"), ("watcher", "spectating, nice lead")]
    await north.close()
    await watcher.close()


@pytest.mark.django_db(transaction=True)
async def test_length_limit_refuses_and_stores_nothing():
    table, players, _ = await _setup()
    client = await _open(table, players[1])
    await client.send({"action": "post", "text": "x" * (ChatMessage.MAX_LENGTH + 1)})
    refused = await client.receive()
    assert refused["type"] == "error" and refused["code"] == "too_long"
    assert "300" in refused["message"]
    await client.send({"action": "post", "text": "   \n\t  "})
    assert (await client.receive())["code"] == "empty"
    assert await sync_to_async(ChatMessage.objects.count)() == 0

    await client.send({"action": "post", "text": "y" * ChatMessage.MAX_LENGTH})
    assert (await client.receive_until(lambda m: m["type"] in ("sent", "error")))["type"] == "sent"
    assert await sync_to_async(ChatMessage.objects.count)() == 1
    await client.close()


@pytest.mark.django_db(transaction=True)
async def test_rate_limit_is_enforced_on_the_server(settings):
    settings.CHAT_RATE_LIMIT = 5
    settings.CHAT_RATE_WINDOW_S = 10
    table, players, _ = await _setup()
    client = await _open(table, players[2])
    for n in range(5):
        await client.send({"action": "post", "text": f"line {n}"})
        assert (await client.receive_until(lambda m: m["type"] in ("sent", "error")))["type"] == "sent"
    await client.send({"action": "post", "text": "one too many"})
    refused = await client.receive_until(lambda m: m["type"] == "error")
    assert refused["code"] == "rate_limited"
    assert await sync_to_async(ChatMessage.objects.count)() == 5
    await client.close()


@pytest.mark.django_db(transaction=True)
async def test_html_is_escaped_in_pushes_and_history():
    table, players, spectator = await _setup()
    north = await _open(table, players[0])
    await north.send({"action": "post", "text": HOSTILE})
    pushed = await north.receive_until(lambda m: m["type"] == "message")
    assert "<script>" not in pushed["html"] and "<b " not in pushed["html"]
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in pushed["html"]
    assert "&amp; co" in pushed["html"]

    later = await ws_client(chat_path(table), spectator)  # a reconnect gets the recent lines
    history = await later.receive()
    assert history["type"] == "history"
    assert "&lt;script&gt;" in history["html"] and "<script>" not in history["html"]
    await north.close()
    await later.close()


@pytest.mark.django_db(transaction=True)
async def test_anonymous_and_outsiders_of_a_private_table_are_refused():
    table, players, spectator = await _setup(private=True)
    anonymous = WsClient(chat_path(table))
    connected, code = await anonymous.connect()
    assert not connected and code == 4401

    cookie = await sync_to_async(session_cookie)(spectator)
    outsider = WsClient(chat_path(table), user=spectator, cookie=cookie)
    connected, code = await outsider.connect()
    assert not connected and code == 4403

    invited = await ws_client(chat_path(table, table.invite_code), spectator)
    assert (await invited.receive())["type"] == "history"
    await invited.close()
    seated = await _open(table, players[3])
    await seated.close()


# --- the page --------------------------------------------------------------------------


def test_stored_lines_show_escaped_on_reload_and_deleted_ones_do_not(players):
    table = make_table(players[0], players=players)
    spectator = make_user("watcher")
    _forget_rates(*players, spectator)
    chat.chat_post(table=table, user=players[0], text="first line")
    chat.chat_post(table=table, user=spectator, text=HOSTILE)
    hidden = chat.chat_post(table=table, user=players[1], text="something rude")
    ChatMessage.objects.filter(pk=hidden.pk).update(deleted=True, deleted_by=players[0])

    client = Client()
    client.force_login(spectator)
    html = client.get(reverse("table", args=[table.pk])).content.decode()
    assert 'id="chat"' in html and f'data-ws="/ws/table/{table.pk}/chat/"' in html
    assert "first line" in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    assert '<script>alert("x")</script>' not in html and "<b onclick" not in html
    assert "something rude" not in html
    assert html.index("first line") < html.index("&lt;script&gt;")  # oldest first


def test_only_the_last_fifty_lines_are_shown(players, settings):
    settings.CHAT_RATE_LIMIT = 1000
    table = make_table(players[0], players=players)
    _forget_rates(players[0])
    for n in range(55):
        chat.chat_post(table=table, user=players[0], text=f"line-{n:02d}")
    lines = chat.chat_recent(table=table)
    assert [line["text"] for line in lines] == [f"line-{n:02d}" for n in range(5, 55)]


def test_private_table_page_passes_the_invite_to_the_chat_socket(players):
    table = make_table(players[0], players=players[:2], is_private=True)
    outsider = make_user("guest")
    client = Client()
    client.force_login(outsider)
    html = client.get(reverse("table", args=[table.pk]), {"invite": table.invite_code}).content.decode()
    assert f'data-ws="/ws/table/{table.pk}/chat/?invite={table.invite_code}"' in html


# --- the service -----------------------------------------------------------------------


def test_text_is_one_trimmed_line():
    assert chat.check_chat_text("  hello\n\n  world\t! ") == "hello world !"
    with pytest.raises(Refusal) as refused:
        chat.check_chat_text(["not", "text"])
    assert refused.value.code == "bad_message"


def test_rate_limit_counts_per_user_in_the_shared_cache(players, settings):
    settings.CHAT_RATE_LIMIT = 2
    table = make_table(players[0], players=players)
    _forget_rates(*players)
    chat.chat_post(table=table, user=players[0], text="a")
    chat.chat_post(table=table, user=players[0], text="b")
    with pytest.raises(Refusal) as refused:
        chat.chat_post(table=table, user=players[0], text="c")
    assert refused.value.code == "rate_limited"
    assert cache.get(chat.chat_rate_key(players[0])) == 3
    chat.chat_post(table=table, user=players[1], text="another user has their own window")
    cache.delete(chat.chat_rate_key(players[0]))  # the window ends
    chat.chat_post(table=table, user=players[0], text="d")


def test_muted_users_cannot_post(players, monkeypatch):
    table = make_table(players[0], players=players)
    _forget_rates(*players)
    monkeypatch.setattr(chat, "chat_is_muted", lambda user, table=None: user == players[2])
    with pytest.raises(Refusal) as refused:
        chat.chat_post(table=table, user=players[2], text="hi")
    assert refused.value.code == "muted"
    chat.chat_post(table=table, user=players[1], text="hi")
    assert list(ChatMessage.objects.values_list("user", flat=True)) == [players[1].pk]


def test_closed_table_refuses_chat(players):
    table = make_table(players[0], players=players)
    table.status = "closed"
    table.save()
    with pytest.raises(Refusal) as refused:
        chat.chat_post(table=table, user=players[0], text="hi")
    assert refused.value.code == "table_closed"
