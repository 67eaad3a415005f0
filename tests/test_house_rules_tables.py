"""House rules where players meet them (docs/house-rules.md): the create-table form's
preset and advanced options, the rules in words on the lobby card, the table page and the
match page, and a whole match under a non-default preset through the real runtime (a
player and three bots), whose replay folds under the stored rules exactly."""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from games import engine
from games.history import matches, replay
from games.models import Hand, Match, Table, TableEvent
from games.runtime import writer
from games.runtime.commands import Issuer
from tests.conftest import make_table, ws_client
from tests.table_driver import play_until

FORM = {"name": "house", "deal_pace_ms": 150, "last_chance_ms": 1500, "turn_limit_s": 30, "allow_bots": "on"}
QQ = engine.preset_rules("qq")


@pytest.mark.django_db
def test_a_table_is_created_with_a_preset_and_single_rules(client, players):
    client.force_login(players[0])
    response = client.post(reverse("create_table"), dict(FORM, preset="classic", rule_kitty_bonus="double"))
    assert response.status_code == 302
    table = Table.objects.get(name="house")
    assert table.rules == {"permanent_twos": False, "kitty_bonus": "double"}
    rules = table.game_rules()
    assert (rules.permanent_twos, rules.kitty_bonus, rules.last_chance_ms) == (False, "double", 1500)
    assert engine.preset_of(rules) == "custom"


@pytest.mark.django_db
def test_no_preset_is_the_rulebook_and_a_preset_alone_is_itself(client, players):
    client.force_login(players[0])
    client.post(reverse("create_table"), FORM)
    client.post(reverse("create_table"), dict(FORM, name="qq", preset="qq"))
    assert Table.objects.get(name="house").rules == {}
    qq = Table.objects.get(name="qq")
    assert engine.preset_of(qq.game_rules()) == "qq"
    assert qq.rules == {k: v for k, v in QQ.differences().items()}


@pytest.mark.django_db
def test_a_contradiction_or_an_unknown_value_is_refused_with_a_reason(client, players):
    client.force_login(players[0])
    bad = client.post(reverse("create_table"), dict(FORM, rule_must_play="none", rule_match_end="dealer_at_a"))
    assert bad.status_code == 400
    assert "Climbing past A wins" in bad.content.decode()
    assert '<details class="rules-advanced" open' in bad.content.decode()  # the chosen rules stay in view
    unknown = client.post(reverse("create_table"), dict(FORM, rule_kitty_bonus="triple"))
    assert unknown.status_code == 400
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_the_lobby_card_and_the_table_page_say_the_rules_in_words(client, players):
    table = make_table(players[0], rules=QQ.differences())
    client.force_login(players[1])
    lobby = client.get(reverse("lobby")).content.decode()
    card = lobby.split(f'data-table="{table.pk}"')[1]
    assert "2s are ordinary cards · redeal if nobody declares · partner may reinforce" in card
    assert "QQ 升级 style" in card and 'data-testid="rules-list"' in card
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    bar = page.split('class="table-options"')[1].split('class="felt')[0]
    assert 'data-testid="rules-summary"' in bar and "redeal if nobody declares" in bar
    # The full list names every option with its RULES section and marks the house rules.
    assert bar.count("rules-list__item") == len(engine.OPTIONS) + bar.count("rules-list__item--changed")
    assert bar.count("rules-list__item--changed") == len(table.game_rules().differences()) == 7  # + the window
    assert "(RULES §6.1)" in bar


@pytest.mark.django_db
def test_the_table_page_shows_a_running_match_s_rules(client, players):
    table = make_table(players[0], players=players, rules={"level_steps": "gentle"})
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, issuer=Issuer.SYSTEM)
    Table.objects.filter(pk=table.pk).update(rules={})  # the match keeps the rules it started with
    client.force_login(players[0])
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert "gentle level steps" in page
    match = Match.objects.get(table=table)
    assert match.game_rules().level_steps == "gentle"
    assert Hand.objects.get(match=match).game_rules() == match.game_rules()


@pytest.fixture
def quick_hands(fast_clock):
    fast_clock.GAMES_NEXT_HAND_DELAY_MS = 0  # the clock starts every next hand at once
    return fast_clock


@pytest.mark.django_db(transaction=True)
async def test_a_whole_match_under_the_qq_preset_with_bots_replays_exactly(players, quick_hands):
    owner = players[0]
    table = await sync_to_async(make_table)(owner, players=[owner], rules=QQ.differences())
    client = await ws_client(f"/ws/table/{table.pk}/", owner)
    version = (await client.receive())["version"]
    for seat in (1, 2, 3):
        await client.send({"action": "add_bot", "seat": seat, "level": "basic", "version": version})
        state = await client.receive_until(lambda m, v=version: m["type"] == "state" and m["version"] > v)
        version = state["version"]
    await client.send({"action": "start_match", "version": version})

    async def keep_within_the_flood_budget(*_args):
        await asyncio.sleep(0.07)  # a person's pace: the socket allows 80 messages in 5 s

    table, game = await play_until(
        {0: client}, table.pk, lambda g: g.phase == "finished", timeout=400, on_turn=keep_within_the_flood_budget
    )
    await client.close()

    rules = table.game_rules()  # the preset with the table's last-chance window
    assert game.rules == rules and engine.preset_of(rules) == "qq"
    assert game.winner is not None and game.levels[str(game.winner)] == "A"
    match = await sync_to_async(Match.objects.get)(table_id=table.pk)
    assert match.winner_team == game.winner and match.game_rules() == rules
    hands = await sync_to_async(list)(Hand.objects.filter(match=match).order_by("number"))
    assert len(hands) == len(game.history) >= 2
    for hand, result in zip(hands, game.history):
        assert hand.game_rules() == rules
        assert hand.defenders_score == result["defenders_score"]
        # QQ-like options, as docs/house-rules.md defines them:
        assert result["flipped"] is None or not result["declarations"]  # redeal: a flip only after 3 redeals
        if result["kitty_multiplier"]:
            assert result["kitty_multiplier"] in (2, 4, 8, 16, 32, 64, 128)  # by pairs, uncapped
        assert result["trump"] is not None
    # The log folds under the stored rules to the stored snapshot ...
    actions = await sync_to_async(list)(
        TableEvent.objects.filter(table_id=table.pk).order_by("seq").values_list("action", flat=True)
    )
    (start,) = [a for a in actions if a["type"] == "start_match"]
    assert replay.start_rules(start) == rules
    assert replay.fold(replay.engine_actions(actions), rules).to_json() == table.state
    # ... and every hand's replay ends on the hand's own recorded score.
    for hand, result in zip(hands, game.history):
        frames = await sync_to_async(matches.hand_frames)(hand)
        assert frames[-1].kind == "hand_scored"
        assert frames[-1].info["result"] == result
        assert frames[-1].view.get("rules") == rules.to_json()
