"""A process subscribes once to a table's group, whatever the number of its sockets there
(its room, games/web/room.py): through the real ASGI app and the Redis channel layer, the
table group has one member in this process, every socket still gets every change and
every moderation notice, and the subscription ends with the last socket. A change goes
through Redis only when a room of the table listens in another process."""

import asyncio
from types import SimpleNamespace

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from games import events
from games.web import room, rooms
from tests.conftest import make_table, make_user, ws_client

pytestmark = pytest.mark.django_db(transaction=True)


def _group_members(table_id: int) -> set:
    layer = get_channel_layer()
    return set(layer.groups.get(layer._get_group_channel_name(events.table_group(table_id)), ()))


async def test_four_sockets_one_subscription_and_every_change_reaches_each(players, fast_clock):
    table = await sync_to_async(make_table)(players[0], players=players)
    watcher = await sync_to_async(make_user)("watcher")
    clients = [await ws_client(f"/ws/table/{table.pk}/", user) for user in [*players, watcher]]
    for client in clients:
        assert (await client.receive())["type"] == "state"
    assert rooms.here().find(table.pk).members() == 5
    assert len(_group_members(table.pk)) == 1  # one channel: the room's, not one per socket

    await clients[0].send({"action": "start_match", "version": table.version})
    for client in clients:  # each socket, seated or watching, hears of the change
        state = await client.receive_until(lambda m: m["type"] == "state" and m["version"] > table.version)
        assert state["html"]

    await clients[4].close()
    await asyncio.sleep(0.1)
    assert rooms.here().find(table.pk).members() == 4 and len(_group_members(table.pk)) == 1
    for client in clients[:4]:
        await client.close()
    await asyncio.sleep(0.1)
    assert rooms.here().find(table.pk) is None  # the room closed with its last socket
    assert _group_members(table.pk) == set()  # the last socket ended the subscription


async def test_a_table_notice_through_the_room_closes_only_the_socket_it_names(players):
    table = await sync_to_async(make_table)(players[0], players=players)
    clients = [await ws_client(f"/ws/table/{table.pk}/", user) for user in players[:2]]
    for client in clients:
        await client.receive()
    notice = {"type": "user.removed", "user_id": players[1].pk, "reason": "kicked", "message": "Removed."}
    await events.send(group=events.table_group(table.pk), message=notice)
    closed = await clients[1].receive_until(lambda m: m["type"] == "closed")
    assert closed["message"]
    assert await clients[0].communicator.receive_nothing(0.3)  # the other socket stays, told nothing
    for client in clients:
        await client.close()


async def test_news_that_comes_before_the_socket_is_accepted_waits_for_its_first_state(players, monkeypatch, caplog):
    table = await sync_to_async(make_table)(players[0], players=players)
    joined = room.TableRoom.join

    async def join_then_news(self, socket):
        await joined(self, socket)
        # A change announced after the socket joined its table, before it is accepted.
        await events.send(group=events.table_group(self.table_id), message=events.table_changed(table.version + 1))
        await asyncio.sleep(0.2)  # the room has heard it and handed it on

    monkeypatch.setattr(room.TableRoom, "join", join_then_news)
    client = await ws_client(f"/ws/table/{table.pk}/", players[0])  # accepted first, whatever came meanwhile
    first = await client.receive()
    assert first["type"] == "state" and first["version"] == table.version
    assert not [r for r in caplog.records if "delivering" in r.getMessage()]  # nothing failed on the way
    await client.close()


async def test_a_change_written_here_reaches_its_sockets_and_nothing_goes_back_through_redis(players, monkeypatch):
    table = await sync_to_async(make_table)(players[0], players=players)
    clients = [await ws_client(f"/ws/table/{table.pk}/", user) for user in players]
    for client in clients:
        await client.receive()
    layer = get_channel_layer()
    published = []
    group_send = layer.group_send

    async def group_send_seen(group, message):
        published.append((group, message["type"]))
        await group_send(group, message)

    monkeypatch.setattr(layer, "group_send", group_send_seen)
    await clients[0].send({"action": "start_match", "version": table.version})
    states = [await client.receive_until(lambda m: m["type"] == "state") for client in clients]
    assert all(state["version"] > table.version for state in states)
    # The table's sockets all listen in this process: its group is told nothing (the lobby is).
    assert published and events.table_group(table.pk) not in {group for group, _kind in published}
    await asyncio.sleep(0.3)
    for client in clients:
        await client.drain()
        versions = [m["version"] for m in client.received if m["type"] == "state"]
        assert len(versions) == len(set(versions))
        await client.close()


class _Socket:
    """A socket that joins a room and never reads its first state: news waits in its reader."""

    def __init__(self):
        self.reader = SimpleNamespace(early=[])


def _another_process_room(table_id: int) -> room.TableRoom:
    """A room of the table as another process would hold it: its own subscription, its own
    channel in the table's group (the layer hands each channel its copy)."""
    here = rooms.here()
    return room.TableRoom(
        table_id,
        turns=here.turns,
        connections=here.connections,
        heartbeat=here.heartbeat,
        someone_present=lambda: None,
        emptied=lambda _room: None,
    )


async def _eventually(check, timeout=5.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "not in time"
        await asyncio.sleep(0.02)


async def test_rooms_of_one_table_in_two_processes_tell_each_other_and_only_then(players, fast_clock):
    table = await sync_to_async(make_table)(players[0], players=players[:1])  # the owner, and three free seats
    layer = get_channel_layer()
    group = events.table_group(table.pk)
    spy = await layer.new_channel()  # what goes through the table's group
    await layer.group_add(group, spy)
    heard = []

    async def listen():  # (a cancelled receive unsubscribes its channel: one task throughout)
        while True:
            heard.append(await layer.receive(spy))

    listening = asyncio.get_running_loop().create_task(listen())

    async def act(room_, seat, kind="add_bot"):
        known = await room_.latest(None)
        return await room_.act(action={"type": kind, "seat": seat}, expected_version=known.version, user=players[0])

    here = rooms.here().room(table.pk)
    await here.join(first := _Socket())
    await _eventually(lambda: heard == [events.room_opened(here.channel)])
    await act(here, 1)
    await asyncio.sleep(0.5)
    assert heard == [events.room_opened(here.channel)]  # alone: the group is told nothing

    there = _another_process_room(table.pk)
    await there.join(second := _Socket())
    # The room here answers with the version it knows, which the newcomer takes as news.
    await _eventually(lambda: len(heard) == 3)
    assert heard[1:] == [events.room_opened(there.channel), events.room_here(here.channel, here.version)]
    await _eventually(lambda: there.version == here.version and here.elsewhere == {there.channel})
    assert there.elsewhere == {here.channel}

    later = await act(here, 2)
    await _eventually(lambda: heard[-1] == events.table_changed(later.version) and there.version == later.version)
    latest = await act(there, 3)
    await _eventually(lambda: heard[-1] == events.table_changed(latest.version) and here.version == latest.version)

    await there.leave(second)  # its last socket: the room closes and says so
    await _eventually(lambda: heard[-1] == events.room_closed(there.channel) and not here.elsewhere)
    told = len(heard)
    await act(here, 3, "remove_bot")
    await asyncio.sleep(0.5)
    assert len(heard) == told  # alone again: nothing
    await here.leave(first)
    listening.cancel()
