"""The clock: timed steps derived from the stored row, submitted through the write path."""
from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine

from games.runtime import clock, writer
from games.models import Table, TableEvent
from tests.conftest import make_table
from tests.table_driver import with_bot_move

pytestmark = pytest.mark.django_db


def bot_table(owner, pace_ms=150, window_ms=50):
    table = make_table(owner, players=[owner], pace_ms=pace_ms, window_ms=window_ms)
    for seat in (1, 2, 3):
        writer.table_act(table_id=table.pk, action={"type": "add_bot", "seat": seat, "level": "basic"},
                           expected_version=None, user=owner)
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=owner)
    return Table.objects.get(pk=table.pk)


def rewind_deal(table, dealt):
    """Pretend the deal started long enough ago for `dealt` cards to be out."""
    started = timezone.now() - timedelta(milliseconds=(dealt - 1) * table.deal_pace_ms + table.deal_pace_ms // 2)
    Table.objects.filter(pk=table.pk).update(deal_started_at=started)
    table.refresh_from_db()
    return table


def test_dealt_count_follows_the_clock(players):
    table = rewind_deal(bot_table(players[0]), 37)
    assert clock.dealt_at(table, timezone.now()) == 37
    game = clock.live(table, engine.Game.from_json(table.state), timezone.now())
    assert game.dealt == 37 and sum(len(h) for h in game.hands) == 37
    # Nothing was written per card: the stored snapshot still has none dealt.
    assert engine.Game.from_json(table.state).dealt == 0


def test_deal_end_fix_trump_and_stale_ticks(players, settings):
    table = rewind_deal(bot_table(players[0], window_ms=10_000), 100)
    seats = list(table.seats.order_by("position"))
    step = clock.due_step(table, engine.Game.from_json(table.state), seats, timezone.now())
    while step.action and step.action["type"] == "bot_declare":
        writer.table_act(table_id=table.pk, action=with_bot_move(table, step.action),
                           expected_version=table.version, source="bot")
        table.refresh_from_db()
        step = clock.due_step(table, engine.Game.from_json(table.state), seats, timezone.now())
    assert step.action == {"type": "deal", "upto": 100}
    version = table.version
    writer.table_act(table_id=table.pk, action=step.action, expected_version=version, source="clock")
    # The same tick again (another process, or late): refused, nothing changes.
    with pytest.raises(writer.ActionRejected) as refused:
        writer.table_act(table_id=table.pk, action=step.action, expected_version=version, source="clock")
    assert refused.value.code == "stale_version"
    table.refresh_from_db()
    assert engine.Game.from_json(table.state).phase == "last_chance"
    # fix_trump is not due before the last-chance window ends.
    with pytest.raises(writer.ActionRejected) as early:
        writer.table_act(table_id=table.pk, action={"type": "fix_trump"}, expected_version=table.version,
                           source="clock")
    assert early.value.code == "not_due"
    # A player cannot submit clock steps.
    with pytest.raises(writer.ActionRejected) as player:
        writer.table_act(table_id=table.pk, action={"type": "fix_trump"}, expected_version=table.version,
                           user=players[0])
    assert player.value.code == "not_allowed"


def table_with_a_due_bot_declaration(owner):
    for _attempt in range(25):
        table = rewind_deal(bot_table(owner), 60)
        seats = list(table.seats.order_by("position"))
        step = clock.due_step(table, engine.Game.from_json(table.state), seats, timezone.now())
        if step.action and step.action["type"] == "bot_declare":
            return table, step
        Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    pytest.fail("no bot wanted to declare with 15 cards in 25 deals")


def test_bots_declare_during_the_deal_with_the_cards_dealt_by_then(players):
    table, step = table_with_a_due_bot_declaration(players[0])
    writer.table_act(table_id=table.pk, action=with_bot_move(table, step.action),
                       expected_version=table.version, source="bot")
    rows = list(TableEvent.objects.filter(table_id=table.pk).order_by("-seq")[:2])
    declare, catch_up = rows
    assert catch_up.action == {"type": "deal", "upto": 60}
    assert declare.action["type"] == "declare" and declare.action["seat"] == step.action["seat"]
    game = engine.Game.from_json(Table.objects.get(pk=table.pk).state)
    assert game.standing["seat"] == step.action["seat"] and game.dealt == 60


def test_a_bot_step_needs_a_move_for_the_bots_own_seat(players):
    table, step = table_with_a_due_bot_declaration(players[0])
    other_seat = (step.action["seat"] % 3) + 1
    for bad in (None, {"type": "fix_trump"}, {"type": "declare", "seat": other_seat, "cards": []}):
        with pytest.raises(writer.ActionRejected) as refused:
            writer.table_act(table_id=table.pk, action={**step.action, "move": bad},
                               expected_version=table.version, source="bot")
        assert refused.value.code == "bad_action"
    assert Table.objects.get(pk=table.pk).state == table.state


def test_no_bots_means_no_mid_deal_wakeups(players):
    table = make_table(players[0], players=players)
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=players[0])
    table = rewind_deal(Table.objects.get(pk=table.pk), 10)
    step = clock.due_step(table, engine.Game.from_json(table.state), list(table.seats.all()), timezone.now())
    assert step.action == {"type": "deal", "upto": 100}

