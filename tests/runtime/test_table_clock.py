"""The clock: timed steps derived from the stored row, submitted through the write path."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine
from games.engine import Refusal
from games.models import Table, TableEvent
from games.runtime import clock, writer
from games.runtime.commands import Issuer
from tests.conftest import make_table
from tests.table_driver import with_bot_move

pytestmark = pytest.mark.django_db


def bot_table(owner, pace_ms=150, window_ms=50):
    table = make_table(owner, players=[owner], pace_ms=pace_ms, window_ms=window_ms)
    for seat in (1, 2, 3):
        writer.table_act(
            table_id=table.pk,
            action={"type": "add_bot", "seat": seat, "level": "basic"},
            expected_version=None,
            user=owner,
        )
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
        action = with_bot_move(table, step.action)
        looked = None
        if action["move"] is None:  # no bot declares: the runner waits for the next look
            looked = step.look
        else:
            writer.table_act(table_id=table.pk, action=action, expected_version=table.version, issuer=Issuer.BOT)
            table.refresh_from_db()
        step = clock.due_step(table, engine.Game.from_json(table.state), seats, timezone.now(), looked=looked)
    assert step.action == {"type": "deal", "upto": 100}
    version = table.version
    writer.table_act(table_id=table.pk, action=step.action, expected_version=version, issuer=Issuer.CLOCK)
    # The same tick again (another process, or late): refused, nothing changes.
    with pytest.raises(Refusal) as refused:
        writer.table_act(table_id=table.pk, action=step.action, expected_version=version, issuer=Issuer.CLOCK)
    assert refused.value.code == "stale_version"
    table.refresh_from_db()
    assert engine.Game.from_json(table.state).phase == "last_chance"
    # fix_trump is not due before the last-chance window ends.
    with pytest.raises(Refusal) as early:
        writer.table_act(
            table_id=table.pk, action={"type": "fix_trump"}, expected_version=table.version, issuer=Issuer.CLOCK
        )
    assert early.value.code == "not_due"
    # A player cannot submit clock steps.
    with pytest.raises(Refusal) as player:
        writer.table_act(
            table_id=table.pk, action={"type": "fix_trump"}, expected_version=table.version, user=players[0]
        )
    assert player.value.code == "not_allowed"


def table_with_a_due_bot_declaration(owner):
    """A table 60 cards into the deal whose bots look at their cards now, and one of them
    declares (the move decided outside the write path, as the runner does)."""
    for _attempt in range(25):
        table = rewind_deal(bot_table(owner), 60)
        seats = list(table.seats.order_by("position"))
        step = clock.due_step(table, engine.Game.from_json(table.state), seats, timezone.now())
        assert step.action == {"type": "bot_declare"} and step.look == 60
        action = with_bot_move(table, step.action)
        if action["move"] is not None:
            return table, action
        # They looked and declined: nothing is due for them until the next look.
        later = clock.due_step(table, engine.Game.from_json(table.state), seats, timezone.now(), looked=60)
        assert later.action is None and later.due == clock.card_due_at(table, 79)
        Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    pytest.fail("no bot wanted to declare with 15 cards in 25 deals")


def test_bots_declare_during_the_deal_with_the_cards_dealt_by_then(players):
    table, action = table_with_a_due_bot_declaration(players[0])
    writer.table_act(table_id=table.pk, action=action, expected_version=table.version, issuer=Issuer.BOT)
    rows = list(TableEvent.objects.filter(table_id=table.pk).order_by("-seq")[:2])
    declare, catch_up = rows
    assert catch_up.action == {"type": "deal", "upto": 60}
    assert declare.action == action["move"] and declare.action["seat"] in (1, 2, 3)
    game = engine.Game.from_json(Table.objects.get(pk=table.pk).state)
    assert game.standing["seat"] == action["move"]["seat"] and game.dealt == 60


def test_a_bot_step_needs_a_move_for_a_bots_seat(players):
    table, action = table_with_a_due_bot_declaration(players[0])
    person = {**action["move"], "seat": 0}  # seat 0 is the owner's, not a bot's
    for bad in (None, {"type": "fix_trump"}, {"type": "play", "seat": action["move"]["seat"], "cards": []}, person):
        with pytest.raises(Refusal) as refused:
            writer.table_act(
                table_id=table.pk, action={**action, "move": bad}, expected_version=table.version, issuer=Issuer.BOT
            )
        assert refused.value.code == "bad_action"
    assert Table.objects.get(pk=table.pk).state == table.state


def test_no_bots_means_no_mid_deal_wakeups(players):
    table = make_table(players[0], players=players)
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=players[0])
    table = rewind_deal(Table.objects.get(pk=table.pk), 10)
    step = clock.due_step(table, engine.Game.from_json(table.state), list(table.seats.all()), timezone.now())
    assert step.action == {"type": "deal", "upto": 100}
