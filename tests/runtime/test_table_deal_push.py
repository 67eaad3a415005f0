"""During the deal each seated socket is pushed its own new cards ({"type": "card"}),
one message per card, at the clock's time, with the deal index, the card's button and
its place in the sorted hand (RULES §2.6)."""

import pytest
from asgiref.sync import sync_to_async

from games import engine
from games.models import Table
from tests.conftest import make_table, ws_client

pytestmark = pytest.mark.django_db(transaction=True)


async def test_each_seat_gets_exactly_its_own_cards_pushed(players, fast_clock):
    fast_clock.GAMES_DEAL_LEAD_IN_MS = 1000  # the deal starts after every socket has its state
    table = await sync_to_async(make_table)(players[0], players=players, pace_ms=10, window_ms=60_000)
    clients = [await ws_client(f"/ws/table/{table.pk}/", user) for user in players]
    for client in clients:
        assert (await client.receive())["type"] == "state"
    await clients[0].send({"action": "start_match", "version": table.version})

    cards = {seat: [] for seat in range(4)}
    hands = {seat: [] for seat in range(4)}  # as the page builds it from the pushes
    counts = {seat: [] for seat in range(4)}
    for seat, client in enumerate(clients):
        while len(cards[seat]) < 25:
            message = await client.receive(timeout=10)
            if message["type"] == "card":
                cards[seat].append(message["dealt"])
                assert f'data-card="{message["card"]}"' in message["html"]
                hands[seat].insert(message["index"], message["card"])
                counts[seat].append((message["dealt"], message["counts"]))
    stored = await sync_to_async(Table.objects.get)(pk=table.pk)
    game = engine.Game.from_json(stored.state)
    order = game.deal_order()
    for seat in range(4):  # every push says how many cards each seat holds at that point
        for dealt, shown in counts[seat]:
            assert shown == [sum(1 for receiver, _ in order[:dealt] if receiver == s) for s in range(4)]
    if game.phase == "deal":
        engine.apply(game, {"type": "deal", "upto": 100})
    for seat in range(4):
        expected = [index + 1 for index, (receiver, _card) in enumerate(order) if receiver == seat]
        assert cards[seat] == expected
        assert hands[seat] == engine.view(game, seat)["hand"]  # nobody declared: one sort order
    for client in clients:
        await client.close()
