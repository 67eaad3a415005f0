"""The lobby: live list over the websocket, table creation, private tables, spectators."""

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse
from django.utils.html import escape

from games.models import Table
from tests.conftest import WsClient, make_table, make_user, session_cookie, ws_client
from tests.table_driver import cards_in, play_until

pytestmark = pytest.mark.django_db(transaction=True)


def lobby_row(html, table):
    start = html.index(f'data-table="{table.pk}"')
    return html[start : html.index("</article>", start)]


async def test_lobby_updates_live_as_people_sit_and_watch(players, fast_clock):
    table = await sync_to_async(make_table)(players[0], players=[players[0]])
    lobby = WsClient("/ws/lobby/", cookie=await sync_to_async(session_cookie)(players[3]))
    assert (await lobby.connect())[0]
    first = await lobby.receive()
    assert first["type"] == "lobby" and escape(table.name) in first["html"]
    assert "1/4" in lobby_row(first["html"], table)

    guest = await ws_client(f"/ws/table/{table.pk}/", players[1])  # joins as a spectator first
    update = await lobby.receive_until(lambda m: 'class="watching">1<' in lobby_row(m["html"], table))
    await guest.receive()
    await guest.send({"action": "sit", "seat": 1, "version": table.version})
    update = await lobby.receive_until(lambda m: "2/4" in lobby_row(m["html"], table))
    row = lobby_row(update["html"], table)
    assert players[1].username in row
    await lobby.receive_until(lambda m: 'class="watching">0<' in lobby_row(m["html"], table))
    await guest.close()
    await lobby.close()


def test_creating_a_table_stores_its_options(client, players):
    client.force_login(players[0])
    response = client.post(
        reverse("create_table"),
        {
            "name": "Evening game",
            "deal_pace_ms": 200,
            "last_chance_ms": 3000,
            "turn_limit_s": 30,
            "allow_bots": "on",
        },
    )
    table = Table.objects.get(name="Evening game")
    assert response.status_code == 302 and response.url == reverse("table", args=[table.pk])
    assert (table.deal_pace_ms, table.last_chance_ms, table.turn_limit_s, table.allow_bots, table.is_private) == (
        200,
        3000,
        30,
        True,
        False,
    )
    page = client.get(response.url)
    assert "200 ms" in page.text and "30 s" in page.text
    bad = client.post(reverse("create_table"), {"name": "x", "deal_pace_ms": 1, "last_chance_ms": 0, "turn_limit_s": 7})
    assert bad.status_code == 400 and not Table.objects.filter(name="x").exists()


def test_private_tables_are_unlisted_and_need_the_link(client, players):
    table = make_table(players[0], players=[players[0]], is_private=True)
    client.force_login(players[1])
    assert escape(table.name) not in client.get(reverse("lobby")).text
    assert client.get(reverse("table", args=[table.pk])).status_code == 404
    invited = client.get(reverse("invite", args=[table.invite_code]), follow=True)
    assert invited.status_code == 200 and escape(table.name) in invited.text


async def test_spectators_see_no_hidden_card(players, fast_clock):
    table = await sync_to_async(make_table)(players[0], players=players)
    clients = [await ws_client(f"/ws/table/{table.pk}/", user) for user in players]
    watcher = await ws_client(f"/ws/table/{table.pk}/", await sync_to_async(make_user)("watcher"))
    await clients[0].send({"action": "start_match", "version": table.version})
    table, _game = await play_until(clients, table.pk, lambda g: g.phase == "play" and len(g.tricks) >= 2)
    await watcher.drain()
    from tests.table_driver import public_cards_by_version

    public = await public_cards_by_version(table.pk)
    seen = 0
    for message in watcher.received:
        codes = set(cards_in(message))
        version = message.get("version", max(public))
        allowed = public[max(v for v in public if v <= version)]
        assert codes <= allowed, f"a spectator was shown {codes - allowed}"
        seen += len(codes)
    assert seen > 0  # played cards did reach the spectator
    for client in clients + [watcher]:
        await client.close()


async def test_spectators_share_the_render_of_the_latest_version_only(players, fast_clock, monkeypatch):
    from games.web import rendering

    renders = []  # (version, spectator?, owner?) of every region render of a socket
    real_render = rendering.render_regions

    def counted(context, *args, **kwargs):
        renders.append((context["table"].version, context["viewer_seat"] is None, context["is_owner"]))
        return real_render(context, *args, **kwargs)

    monkeypatch.setattr(rendering, "render_regions", counted)
    table = await sync_to_async(make_table)(players[0], players=players)
    north = await ws_client(f"/ws/table/{table.pk}/", players[0])
    watchers = [
        await ws_client(f"/ws/table/{table.pk}/", await sync_to_async(make_user)(f"watcher{i}")) for i in range(2)
    ]
    seated = table.version
    await north.send({"action": "stand", "version": seated})
    stood = [await w.receive_until(lambda m: m.get("type") == "state" and m["version"] > seated) for w in watchers]
    assert stood[0]["html"] == stood[1]["html"]
    # One render served both watchers (north, the owner, standing up, is rendered apart).
    assert renders.count((stood[0]["version"], True, False)) == 1
    assert "north" not in stood[0]["html"]["players"]
    await north.send({"action": "sit", "seat": 0, "version": stood[0]["version"]})
    back = [
        await w.receive_until(lambda m: m.get("type") == "state" and m["version"] > stood[0]["version"])
        for w in watchers
    ]
    late = await ws_client(f"/ws/table/{table.pk}/", await sync_to_async(make_user)("latecomer"))
    first = await late.receive_until(lambda m: m.get("type") == "state")
    # Everyone is shown the newest version, never the render kept from before it.
    assert first["version"] == back[0]["version"] == back[1]["version"]
    # A socket is sent the regions that changed since its last state; a new one all of them.
    assert set(first["html"]) == set(rendering.REGIONS) and "north" in first["html"]["players"]
    assert back[0]["html"] == back[1]["html"] and "north" in back[0]["html"]["players"]
    assert all(first["html"][name] == html for name, html in back[0]["html"].items())
    for client in [north, late, *watchers]:
        await client.close()


async def test_a_state_carries_only_the_regions_that_changed_and_a_resync_all(players, fast_clock):
    from games.web import rendering

    table = await sync_to_async(make_table)(players[0], players=players)
    north = await ws_client(f"/ws/table/{table.pk}/", players[0])
    watcher = await ws_client(f"/ws/table/{table.pk}/", await sync_to_async(make_user)("watcher"))
    first = await watcher.receive_until(lambda m: m.get("type") == "state")
    assert set(first["html"]) == set(rendering.REGIONS)
    await north.send({"action": "stand", "version": first["version"]})
    stood = await watcher.receive_until(lambda m: m.get("type") == "state" and m["version"] > first["version"])
    # North left the seat: the seats changed; a spectator's (empty) hand did not.
    assert "players" in stood["html"] and "hand" not in stood["html"]
    assert all(stood["html"][name] != first["html"][name] for name in stood["html"])
    await watcher.send({"action": "sync"})
    synced = await watcher.receive_until(lambda m: m.get("type") == "state")
    assert set(synced["html"]) == set(rendering.REGIONS) and synced["html"]["players"] == stood["html"]["players"]
    for client in (north, watcher):
        await client.close()
