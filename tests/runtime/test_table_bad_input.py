"""Every bad websocket message gets a clear error to that client only, changes nothing,
and leaves the socket usable; floods are told why and closed with 4008."""

import json

import pytest
from asgiref.sync import sync_to_async

from games import engine
from games.models import Table, TableEvent
from tests.conftest import WsClient, make_table, make_user, session_cookie, ws_client
from tests.table_driver import play_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def players(players_and_guest):
    """Every test here runs with four accounts and again with a guest at East."""
    return players_and_guest


@sync_to_async
def snapshot(table_id):
    table = Table.objects.get(pk=table_id)
    return table.version, table.state, TableEvent.objects.filter(table_id=table_id).count()


async def playing_table(players):
    """A table in the play phase, with the four seats' clients connected."""
    table = await sync_to_async(make_table)(players[0], players=players)
    clients = [await ws_client(f"/ws/table/{table.pk}/", user) for user in players]
    await clients[0].send({"action": "start_match", "version": table.version})
    table, game = await play_until(clients, table.pk, lambda g: g.phase == "play" and g.trick and len(g.trick) == 1)
    for client in clients:
        await client.drain()
    return table, game, clients


async def expect_error(client, payload, code, table_id):
    before = await snapshot(table_id)
    await client.send(payload)
    message = await client.receive_until(lambda m: m["type"] == "error")
    assert message["code"] == code, message
    assert message["message"]  # a human sentence, not just a code
    assert await snapshot(table_id) == before, "a refused action changed the table"
    return message


async def still_usable(client, table_id):
    await client.send({"action": "sync"})
    message = await client.receive_until(lambda m: m["type"] == "state")
    version, _state, _events = await snapshot(table_id)
    assert message["version"] == version  # answered with the table as it is now


async def test_bad_messages_are_refused_and_change_nothing(players, fast_clock):
    table, game, clients = await playing_table(players)
    turn = game.turn
    mover, other = clients[turn], clients[(turn + 1) % 4]
    view = engine.view(game, turn)
    v = table.version
    others_hand = engine.view(game, (turn + 1) % 4)["hand"]

    await expect_error(mover, "{not json", "bad_json", table.pk)
    await expect_error(mover, {"no": "action"}, "bad_message", table.pk)
    await expect_error(mover, {"action": "launch_rockets", "version": v}, "unknown_action", table.pk)
    await expect_error(mover, {"action": "play", "cards": ["SA"] * 3000, "version": v}, "too_large", table.pk)
    await expect_error(
        mover, {"action": "play", "cards": view["hand"][:1], "version": v - 1}, "stale_version", table.pk
    )
    await expect_error(mover, {"action": "play", "cards": view["hand"][:1]}, "bad_version", table.pk)
    await expect_error(mover, {"action": "bury", "cards": view["hand"][:8], "version": v}, "wrong_phase", table.pk)
    # Cards the seat does not hold (taken from the next seat's hand, minus any it shares).
    foreign = [c for c in others_hand if c not in view["hand"]][:1]
    await expect_error(mover, {"action": "play", "cards": foreign, "version": v}, "cards_not_in_hand", table.pk)
    # Not this seat's turn: the seat is the user's own, whatever the message claims.
    await expect_error(
        other, {"action": "play", "cards": others_hand[:1], "seat": turn, "version": v}, "not_your_turn", table.pk
    )
    # An illegal follow: a card of another suit-class while holding the led one.
    illegal = _illegal_follow(game, turn)
    if illegal:
        message = await expect_error(
            mover, {"action": "play", "cards": illegal, "version": v}, "must_follow_suit", table.pk
        )
        assert message["rule"] == "5.4" and "§" not in message["message"]  # a reference beside the sentence
    await still_usable(mover, table.pk)
    await still_usable(other, table.pk)
    for client in clients:
        await client.close()


def _illegal_follow(game, seat):
    """A follow that keeps back a led-suit card while playing another suit (RULES §5.4)."""
    ctx = engine.context(game.level, game.trump)
    lead = game.trick[0][1]
    led = ctx.suit_class(lead[0])
    hand = game.hands[seat]
    same = [c for c in hand if ctx.suit_class(c) == led]
    off = [c for c in hand if ctx.suit_class(c) != led]
    keep = min(len(same), len(lead)) - 1
    if keep < 0 or len(off) < len(lead) - keep:
        return None
    return same[:keep] + off[: len(lead) - keep]


async def test_spectator_cannot_act_and_errors_go_only_to_the_sender(players, fast_clock):
    table, _game, clients = await playing_table(players)
    spectator = await ws_client(f"/ws/table/{table.pk}/", await sync_to_async(make_user)("watcher"))
    first = await spectator.receive()
    assert first["type"] == "state"
    await expect_error(spectator, {"action": "play", "cards": ["SA"], "version": table.version}, "not_seated", table.pk)
    for client in clients:
        assert await client.communicator.receive_nothing(timeout=0.1), "an error leaked to another socket"
    for client in clients + [spectator]:
        await client.close()


async def test_unauthenticated_and_foreign_origin_sockets_are_refused(players, fast_clock):
    table = await sync_to_async(make_table)(players[0], players=players)
    anonymous = WsClient(f"/ws/table/{table.pk}/", cookie=None)
    connected, _ = await anonymous.connect()
    assert not connected
    cookie = await sync_to_async(session_cookie)(players[0])
    forged = WsClient(f"/ws/table/{table.pk}/", cookie=cookie, origin=(b"origin", b"http://evil.example"))
    connected, _ = await forged.connect()
    assert not connected


async def test_private_table_needs_the_invite(players, fast_clock):
    table = await sync_to_async(make_table)(players[0], players=[players[0]], is_private=True)
    stranger = await sync_to_async(make_user)("stranger")
    cookie = await sync_to_async(session_cookie)(stranger)
    refused = WsClient(f"/ws/table/{table.pk}/", cookie=cookie)
    connected, _ = await refused.connect()
    assert not connected
    invited = WsClient(f"/ws/table/{table.pk}/?invite={table.invite_code}", cookie=cookie)
    connected, _ = await invited.connect()
    assert connected
    await invited.close()


async def test_flooding_socket_is_told_and_closed_with_4008(players, fast_clock):
    table = await sync_to_async(make_table)(players[0], players=players)
    client = await ws_client(f"/ws/table/{table.pk}/", players[1])
    await client.receive()
    for _ in range(120):
        await client.communicator.send_to(text_data=json.dumps({"action": "classify", "cards": []}))
    closed, errors = None, []
    for _ in range(300):
        output = await client.communicator.receive_output(timeout=2)
        if output["type"] == "websocket.close":
            closed = output
            break
        errors.append(json.loads(output["text"]).get("code"))
    assert closed is not None and closed["code"] == 4008
    assert errors.count("flooded") == 1


async def test_seat_changes_before_the_match_and_owner_only_start(players, fast_clock):
    table = await sync_to_async(make_table)(players[0], players=[players[0], players[1]])
    east = await ws_client(f"/ws/table/{table.pk}/", players[1])
    await east.receive()
    await east.send({"action": "sit", "seat": 3, "version": table.version})
    state = await east.receive_until(lambda m: m["type"] == "state" and m["version"] > table.version)
    seats = await sync_to_async(lambda: list(Table.objects.get(pk=table.pk).seats.values_list("user_id", flat=True)))()
    assert seats[3] == players[1].pk and seats[1] is None
    await expect_error(east, {"action": "sit", "seat": 0, "version": state["version"]}, "seat_taken", table.pk)
    await expect_error(east, {"action": "start_match", "version": state["version"]}, "not_owner", table.pk)
    await east.close()


async def test_selection_verdicts_and_refusals_speak_the_players_language(players, fast_clock):
    from accounts.services import profile_set_language

    table, game, clients = await playing_table(players)
    turn = game.turn
    await sync_to_async(profile_set_language)(user=players[turn], language="zh-hans")
    chinese = await ws_client(f"/ws/table/{table.pk}/", players[turn])
    await chinese.receive()
    illegal = _illegal_follow(game, turn)
    if illegal is None:  # the mover is void in the led suit: any card is legal, nothing to refuse
        pytest.skip("this deal gives the mover no illegal follow")
    await chinese.send({"action": "classify", "cards": illegal})
    verdict = await chinese.receive_until(lambda m: m["type"] == "selection")
    assert not verdict["legal"]
    assert "必须" in verdict["html"]
    refusal = await expect_error(
        chinese, {"action": "play", "cards": illegal, "version": table.version}, "must_follow_suit", table.pk
    )
    assert refusal["rule"] == "5.4" and "必须" in refusal["message"] and "§" not in refusal["message"]
    for client in clients + [chinese]:
        await client.close()


@pytest.mark.parametrize(
    "origin",
    [
        "http://127.0.0.1:9999",
        "https://127.0.0.1:8000",
        "http://127.0.0.1",
        "http://localhost:8000",
        "null",
        "http://127.0.0.1:port",
    ],
)
async def test_a_socket_from_another_scheme_or_port_of_an_allowed_host_is_refused(players, fast_clock, origin):
    table = await sync_to_async(make_table)(players[0], players=players)
    cookie = await sync_to_async(session_cookie)(players[0])
    other = WsClient(f"/ws/table/{table.pk}/", cookie=cookie, origin=(b"origin", origin.encode()))
    connected, _ = await other.connect()
    assert not connected
    same = WsClient(f"/ws/table/{table.pk}/", cookie=cookie)
    connected, _ = await same.connect()
    assert connected
    await same.close()
