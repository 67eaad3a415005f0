"""The Hint button is for casual tables (docs/table-ui.md): a rated table's page has none,
and a hint asked for over the socket there is refused with that reason and changes nothing."""

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import translation

from games import engine
from games.models import Table, TableEvent
from games.web.i18n import translate_rejection
from tests.conftest import make_table, ws_client
from tests.engine.test_engine_views import game_at

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def playing_table(players, *, rated):
    """A table in the middle of a hand's play, with a person on turn."""
    table = make_table(players[0], players=players, rated=rated, turn_limit_s=30)
    game = game_at("play")
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING, state=game.to_json())
    return Table.objects.get(pk=table.pk), game


@sync_to_async
def stored(table_id):
    table = Table.objects.get(pk=table_id)
    return table.version, table.state, TableEvent.objects.filter(table_id=table_id).count()


async def ask_for_a_hint(table, game, players):
    client = await ws_client(f"/ws/table/{table.pk}/", players[game.turn])
    first = await client.receive()
    await client.send({"action": "hint"})
    answer = await client.receive_until(lambda m: m["type"] in ("hint", "error"))
    await client.close()
    return first, answer


async def test_a_rated_table_offers_no_hint_and_refuses_one_asked_for(players):
    table, game = await playing_table(players, rated=True)
    before = await stored(table.pk)
    first, answer = await ask_for_a_hint(table, game, players)
    assert first["type"] == "state" and 'data-testid="hand"' in first["html"]["hand"]
    assert "data-hint" not in first["html"]["hand"]  # no Hint button
    # Refused with the reason, not "it is not your turn" (it is this player's turn).
    assert answer == {"type": "error", "code": "hints_off", "message": "Hints are only available at casual tables."}
    assert await stored(table.pk) == before  # nothing changed
    page = await sync_to_async(page_of)(table, players[game.turn])
    assert 'data-testid="hand"' in page and "data-hint" not in page  # nor on the page itself


def page_of(table, user) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/tables/{table.pk}/").content.decode()


async def test_a_casual_table_offers_a_legal_hint(players):
    table, game = await playing_table(players, rated=False)
    before = await stored(table.pk)
    first, answer = await ask_for_a_hint(table, game, players)
    assert "data-hint" in first["html"]["hand"]
    assert "data-hint" in await sync_to_async(page_of)(table, players[game.turn])
    assert answer["type"] == "hint" and engine.classify(game, game.turn, answer["cards"])["legal"]
    assert await stored(table.pk) == before  # a hint only selects cards


def test_the_refusal_reads_in_chinese():
    from games.engine import Refusal

    refusal = Refusal("hints_off", "Hints are only available at casual tables.")
    with translation.override("en"):
        assert translate_rejection(refusal, "zh-hans") == "只有休闲桌可以使用提示。"
