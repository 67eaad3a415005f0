"""Four real websocket clients through the real ASGI app, Redis channel layer and
PostgreSQL play a hand; every message each client received is checked for leaks."""

import asyncio

import pytest
from asgiref.sync import sync_to_async

from games import engine
from games.models import Hand, Table
from tests.conftest import make_table, ws_client
from tests.table_driver import cards_in, fold_log, own_cards, play_until, public_cards_by_version

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def players(players_and_guest):
    """Every test here runs with four accounts and again with a guest at East."""
    return players_and_guest


async def seated_clients(players, **options):
    table = await sync_to_async(make_table)(players[0], players=players, **options)
    clients = [await ws_client(f"/ws/table/{table.pk}/", user) for user in players]
    for client in clients:
        first = await client.receive()
        assert first["type"] == "state"
    return table, clients


async def start(table, clients):
    await clients[0].send({"action": "start_match", "version": table.version})
    await clients[0].receive_until(lambda m: m["type"] == "state" and m["version"] > table.version)


async def test_four_clients_play_a_complete_hand_without_leaks(players, fast_clock):
    table, clients = await seated_clients(players)
    await start(table, clients)
    table, game = await play_until(clients, table.pk, lambda g: g.phase in ("scored", "finished"), timeout=90)
    await asyncio.sleep(0.2)
    for client in clients:
        await client.drain()

    hand = await sync_to_async(Hand.objects.get)(match__table=table, number=1)
    assert hand.finished_at is not None and hand.defenders_score == game.result["defenders_score"]
    # The record's parts add up to the score (RULES §6), and the kitty's points are its cards'.
    assert hand.defenders_score == hand.trick_points + hand.kitty_bonus + hand.penalties
    assert hand.kitty_points == engine.points(game.result["buried"])
    public = await public_cards_by_version(table.pk)
    state = table.state
    for seat, client in enumerate(clients):
        mine = own_cards(state, seat, game.dealer)
        hand_cards_seen = set()
        for message in client.received:
            codes = cards_in(message)
            if not codes:
                continue
            version = message.get("version", max(public))
            allowed = mine | public[max(v for v in public if v <= version)]
            leaked = set(codes) - allowed
            assert not leaked, f"seat {seat} was shown {leaked} at version {version}"
            hand_cards_seen.update(codes)
        # The seat did see its own cards (the check above is not vacuous).
        assert mine - set(game.kitty) <= hand_cards_seen | set(game.kitty)
    # The last state each seat got shows the scored hand, with the kitty revealed (RULES §6.3).
    for client in clients:
        last = [m for m in client.received if m["type"] == "state"][-1]
        assert "result" in last["html"]["center"]
    for client in clients:
        await client.close()


async def test_log_folded_through_engine_equals_snapshot(players, fast_clock):
    table, clients = await seated_clients(players)
    await start(table, clients)
    table, _game = await play_until(clients, table.pk, lambda g: g.phase == "play" and len(g.tricks) >= 3)
    for client in clients:
        await client.close()
    folded = await sync_to_async(fold_log)(table.pk)
    stored = (await sync_to_async(Table.objects.get)(pk=table.pk)).state
    assert folded == stored
