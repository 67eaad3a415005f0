"""House rules where players meet them (docs/house-rules.md): the create-table form's
preset and advanced options, the rules in words on the lobby card, the table page and the
match page, and a whole match under a non-default preset through the real runtime (a
player and three bots), whose replay folds under the stored rules exactly."""

import asyncio
import random
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse
from django.utils import timezone

from games import engine
from games.history import matches, replay
from games.history.rendering import frame_context
from games.models import Hand, Match, Table, TableEvent
from games.runtime import clock, writer
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
    # The full list names every option with a link to its rules section and marks the house rules.
    assert bar.count("rules-list__item") == len(engine.OPTIONS) + bar.count("rules-list__item--changed")
    assert bar.count("rules-list__item--changed") == len(table.game_rules().differences()) == 7  # + the window
    assert '<a class="rule-link" href="/rules/#kitty-bonus"' in bar and "§" not in bar


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


@pytest.mark.django_db
def test_the_match_page_lists_the_match_s_rules_in_both_languages(client, players):
    """The match page (games/web/history_views.py) shows the rules the match was played
    under, read from the match's record: here the casual preset, after the table changed."""
    casual = engine.PRESETS["casual"]
    table = make_table(players[0], players=players, rules=dict(casual))
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, issuer=Issuer.SYSTEM)
    Table.objects.filter(pk=table.pk).update(rules={})
    match = Match.objects.get(table=table)
    client.force_login(players[1])

    def rules_on_page():
        page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
        return page.split('class="match-rules"')[1].split("</details>")[0]

    rules = rules_on_page()
    assert rules.startswith(">Rules: ") and 'data-testid="rules-list"' in rules
    assert '<span class="rules-list__preset">Casual</span>' in rules
    summary = "2s are trump · kitty card sets trump if nobody declares · no throw penalty · kitty ×2 · "
    assert summary + "gentle level steps · 5, 10 and K must be played" in rules
    assert rules.count("rules-list__item--changed") == len(casual) + 1  # and the last-chance window
    assert 'href="/rules/#scoring"' in rules and "rules: scoring and levels" in rules and "house rule" in rules

    client.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})
    rules = rules_on_page()
    assert rules.startswith(">规则： ") and '<span class="rules-list__preset">休闲</span>' in rules
    assert "甩牌失败不罚分 · 抠底 ×2 · 平缓升级台阶" in rules and "房规" in rules and "规则：计分与升级" in rules
    assert "Casual" not in rules and "gentle level steps" not in rules


def test_rulesets_json_marks_the_rateable_presets():
    """`manage.py rulesets --json` keeps the issue's keys and adds `rateable` per preset."""
    import json
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("rulesets", json=True, stdout=out)
    data = json.loads(out.getvalue())
    assert all(set(o) == {"name", "values", "default", "rule"} for o in data["options"])
    assert all(set(p) == {"name", "options", "rateable"} for p in data["presets"])
    rateable = {p["name"]: p["rateable"] for p in data["presets"]}
    assert rateable == {"standard": True, "qq": True, "classic": True, "casual": False, "custom": False}
    out = StringIO()
    call_command("rulesets", stdout=out)
    assert (
        "  casual    Casual (casual only): " in out.getvalue()
        and "Classic: no permanent 2s (rateable)" in out.getvalue()
    )


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
    log = await sync_to_async(list)(
        TableEvent.objects.filter(table_id=table.pk).order_by("seq").values_list("action", "events")
    )
    results = [e["result"] for _action, events in log for e in events if e["type"] == "hand_scored"]
    assert len(hands) == len(results) >= 2 and results[-1] == game.result
    for hand, result in zip(hands, results, strict=True):
        assert hand.game_rules() == rules
        assert hand.defenders_score == result["defenders_score"]
        # QQ-like options, as docs/house-rules.md defines them:
        assert result["flipped"] is None or not result["declarations"]  # redeal: a flip only after 3 redeals
        if result["kitty_multiplier"]:
            assert result["kitty_multiplier"] in (2, 4, 8, 16, 32, 64, 128)  # by pairs, uncapped
        assert result["trump"] is not None
    # The log folds under the stored rules to the stored snapshot ...
    actions = [action for action, _events in log]
    (start,) = [a for a in actions if a["type"] == "start_match"]
    assert replay.start_rules(start) == rules
    assert replay.fold(replay.engine_actions(actions), rules).to_json() == table.state
    # ... and every hand's replay ends on the hand's own recorded score.
    for hand, result in zip(hands, results, strict=True):
        frames = await sync_to_async(matches.hand_frames)(hand)
        assert frames[-1].kind == "hand_scored"
        assert frames[-1].info["result"] == result
        assert frames[-1].view.get("rules") == rules.to_json()


@pytest.mark.django_db
def test_nobody_declares_under_redeal_and_the_clock_deals_the_hand_again(players, fast_clock):
    table = make_table(players[0], players=players, window_ms=0, rules={"no_declaration": "redeal"})
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=players[0])
    table = Table.objects.get(pk=table.pk)
    first_deck = Hand.objects.get(match__table=table).deck
    # The whole deal is out by now; nobody at the table declares.
    Table.objects.filter(pk=table.pk).update(deal_started_at=timezone.now() - timedelta(seconds=60))
    for _ in range(3):  # the clock's steps: persist the deal, then fix trump after the window
        table = Table.objects.get(pk=table.pk)
        seats = list(table.seats.order_by("position"))
        step = clock.due_step(table, engine.Game.from_json(table.state), seats, timezone.now())
        if step is None or step.action is None:
            break
        writer.table_act(table_id=table.pk, action=step.action, expected_version=table.version, issuer=step.issuer)
        if engine.Game.from_json(Table.objects.get(pk=table.pk).state).redeals:
            break
    table = Table.objects.get(pk=table.pk)
    game = engine.Game.from_json(table.state)
    assert (game.phase, game.dealt, game.redeals, game.trump, game.flipped) == ("deal", 0, 1, None, None)
    last = TableEvent.objects.filter(table=table).order_by("-seq").first()
    assert last.action == {"type": "fix_trump"} and [e["type"] for e in last.events] == ["redealt"]
    # The deal starts again on the clock, with the new deck on record.
    assert table.deal_started_at > timezone.now() - timedelta(seconds=5)
    hand = Hand.objects.get(match__table=table)
    assert hand.deck == game.deck != first_deck
    assert clock.dealt_at(table, timezone.now()) < 100


def test_a_replay_under_house_rules_shows_the_redeal_and_ends_where_the_hand_did():
    rules = engine.check_rules({"no_declaration": "redeal", "permanent_twos": False, "kitty_bonus": "double"})
    rng = random.Random(5)
    game, actions = engine.Game.new(rules), []

    def act(action):
        nonlocal game
        game, _ = engine.step(game, action)
        actions.append(action)

    act({"type": "start_hand", "seed": "replay-redeal"})
    act({"type": "deal", "upto": 100})
    act({"type": "fix_trump"})  # nobody declared: dealt again
    assert game.phase == "deal" and game.redeals == 1
    act({"type": "deal", "upto": 100})
    seat, cards = next((s, c[0]) for s in range(4) if (c := engine.legal_declarations(game, s)))
    act({"type": "declare", "seat": seat, "cards": cards})
    act({"type": "fix_trump"})
    act({"type": "bury", "seat": game.dealer, "cards": game.hands[game.dealer][:8]})
    while game.phase == "play":
        act({"type": "play", "seat": game.turn, "cards": engine.sample_play(game, game.turn, rng)})
    frames = replay.hand_frames([], actions, rules)
    kinds = [f.kind for f in frames]
    assert kinds.count("redealt") == 1 and kinds.count("card_dealt") == 200
    assert frames[-1].kind == "hand_scored" and frames[-1].view == engine.view(game, None, reveal=True)
    assert frames[-1].info["result"]["kitty_multiplier"] in (0, 2)
    names = ["N", "E", "S", "W"]
    sentences = [frame_context(f, names)["sentence"] for f in frames]  # the replay viewer's steps
    assert "Nobody declared: the hand is dealt again (house rule)." in sentences
    # The same log under the rulebook is another game: the stored rules are what replays it.
    try:
        other = replay.fold(actions)
    except replay.ReplayError:
        other = None
    assert other is None or other.to_json() != game.to_json()


def test_the_rules_read_in_both_languages():
    from django.utils import translation

    from games import rulesets

    qq = rulesets.described(QQ)
    with translation.override("zh-hans"):
        zh = rulesets.described(QQ)
    assert qq["summary"][:2] == ["2s are ordinary cards", "redeal if nobody declares"]
    assert zh["summary"][:2] == ["2 不是主牌", "无人亮主则重发"]
    assert zh["preset"] == "QQ 升级风格" and qq["preset"] == "QQ 升级 style"
    assert [r["rule"] for r in zh["full"]] == [o.rule for o in engine.OPTIONS]
    assert all(r["label"] and r["explanation"] and r["value"] for r in zh["full"])
