"""The queryable record (Match, Hand, Bury) follows the event log."""

import pytest

from games import engine
from games.models import Bury, Hand, Match, Table
from games.runtime import writer
from tests.conftest import make_table
from tests.table_driver import drive

pytestmark = pytest.mark.django_db


def test_a_finished_match_is_recorded_with_winner_and_final_levels(players, settings):
    settings.GAMES_NEXT_HAND_DELAY_MS = 0
    table = make_table(players[0], players=players, pace_ms=1, window_ms=0)
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=players[0])
    # Both teams at A before the hand (RULES §8.4): whoever wins this hand wins the match.
    table = Table.objects.get(pk=table.pk)
    game = engine.Game.from_json(table.state)
    game.levels = {"0": "A", "1": "A"}
    Table.objects.filter(pk=table.pk).update(state=game.to_json())

    table, game = drive(table.pk, dict(enumerate(players)), lambda g: g.phase == "finished")
    match = Match.objects.get(table=table)
    assert table.status == Table.Status.FINISHED
    assert match.winner_team == game.winner and match.finished_at is not None
    assert match.final_levels == game.levels
    hand = Hand.objects.get(match=match, number=1)
    assert hand.defenders_score == game.result["defenders_score"]
    assert hand.levels_after == game.result["levels_after"]
    bury = Bury.objects.get(hand=hand)
    assert sorted(bury.cards) == sorted(game.result["buried"]) and sorted(bury.kitty) == sorted(game.result["kitty"])
    assert hand.trump == game.result["trump"] and hand.dealer == game.result["dealer"]
    assert sorted(hand.deck) == sorted(engine.full_deck())


def test_hands_follow_one_another_with_the_rotation(players, settings):
    settings.GAMES_NEXT_HAND_DELAY_MS = 0
    table = make_table(players[0], players=players, pace_ms=1, window_ms=0)
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=players[0])
    table, _game = drive(table.pk, dict(enumerate(players)), lambda g: g.hand_no == 3 and g.phase == "deal")
    first, second = Hand.objects.filter(match__table=table).order_by("number")[:2]
    assert first.next_dealer == second.dealer  # RULES §8.2
    assert second.levels_before == first.levels_after
    assert first.last_seq < second.first_seq
