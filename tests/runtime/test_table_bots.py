"""One person can play right away: the owner fills the other seats with bots, which act
through the same write path as people."""

import pytest
from asgiref.sync import sync_to_async

from games import engine
from games.history import replay
from games.models import Hand, TableEvent
from tests.conftest import make_table, ws_client
from tests.table_driver import play_until

pytestmark = pytest.mark.django_db(transaction=True)


async def test_one_player_and_three_bots_play_a_hand(players, fast_clock):
    owner = players[0]
    table = await sync_to_async(make_table)(owner, players=[owner])
    client = await ws_client(f"/ws/table/{table.pk}/", owner)
    state = await client.receive()
    version = state["version"]
    for seat, level in ((1, "basic"), (2, "strong"), (3, "basic")):
        await client.send({"action": "add_bot", "seat": seat, "level": level, "version": version})
        state = await client.receive_until(lambda m, v=version: m["type"] == "state" and m["version"] > v)
        version = state["version"]
    await client.send({"action": "start_match", "version": version})
    table, game = await play_until({0: client}, table.pk, lambda g: g.phase in ("scored", "finished"), timeout=120)

    bot_rows = await sync_to_async(list)(TableEvent.objects.filter(table_id=table.pk, source="bot"))
    seats = {row.action["seat"] for row in bot_rows if "seat" in row.action}
    assert seats == {1, 2, 3}
    # Bots' actions are ordinary engine actions in the log; a mid-deal declaration is
    # preceded by persisting the cards dealt so far.
    assert {row.action["type"] for row in bot_rows} <= {"deal", "bury", "play", "declare"}
    # The bots' moves are the log: folding it through the engine gives the stored snapshot,
    # and the hand's record agrees with the score the engine computes from the cards.
    actions = await sync_to_async(list)(
        TableEvent.objects.filter(table_id=table.pk).order_by("seq").values_list("action", flat=True)
    )
    (start,) = [action for action in actions if action["type"] == "start_match"]
    assert replay.fold(replay.engine_actions(actions), replay.start_rules(start)).to_json() == table.state
    hand = await sync_to_async(Hand.objects.get)(match__table_id=table.pk, number=1)
    assert hand.kitty_points == engine.points(game.result["buried"])
    assert hand.defenders_score == hand.trick_points + hand.kitty_bonus + hand.penalties
    assert hand.defenders_score == game.result["defenders_score"]
    await client.close()


async def test_only_the_owner_adds_bots_and_only_where_allowed(players, fast_clock):
    table = await sync_to_async(make_table)(players[0], players=[players[0], players[1]], allow_bots=False)
    guest = await ws_client(f"/ws/table/{table.pk}/", players[1])
    await guest.receive()
    await guest.send({"action": "add_bot", "seat": 2, "level": "basic", "version": table.version})
    assert (await guest.receive_until(lambda m: m["type"] == "error"))["code"] == "not_owner"
    owner = await ws_client(f"/ws/table/{table.pk}/", players[0])
    await owner.receive()
    await owner.send({"action": "add_bot", "seat": 2, "level": "basic", "version": table.version})
    assert (await owner.receive_until(lambda m: m["type"] == "error"))["code"] == "bots_off"
    await guest.close()
    await owner.close()
