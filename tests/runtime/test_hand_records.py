"""Each player's hand record (games/history/hand_records.py): kept by the write path as
hands are scored, exactly what a rebuild from the stored hands gives, and what the
profile shows."""

import io

import pytest
from django.core.management import call_command

from games.history.hand_records import SeatHand, add_hand, hand_records_rebuild
from games.history.models import HandRecord
from games.models import Hand
from games.runtime import writer
from games.web.profile_stats import profile_stats
from tests.conftest import make_table
from tests.table_driver import drive

pytestmark = pytest.mark.django_db


def test_one_hand_counts_for_the_dealing_team_and_the_defenders():
    dealer_side, defender_side = HandRecord(user_id=1), HandRecord(user_id=2)
    hand = dict(dealer=0, level_change={"team": 1, "levels": 2}, kitty_bonus=20, defenders_score=130)
    add_hand(dealer_side, SeatHand(seat=2, levels_after={"0": "5", "1": "7"}, **hand))
    add_hand(defender_side, SeatHand(seat=1, levels_after={"0": "5", "1": "7"}, **hand))
    assert (dealer_side.dealt, dealer_side.kept, dealer_side.as_dealer, dealer_side.as_defender) == (1, 0, 0, 0)
    assert (dealer_side.kitty_conceded, dealer_side.kitty_conceded_points, dealer_side.kitty_won) == (1, 20, 0)
    assert dealer_side.latest_levels == [-2] and dealer_side.best_level == "5"
    assert (defender_side.as_defender, defender_side.took_over, defender_side.defended_points) == (1, 1, 130)
    assert (defender_side.kitty_won, defender_side.kitty_won_points) == (1, 20)
    assert defender_side.latest_levels == [2] and defender_side.best_level == "7"


def test_the_chart_keeps_only_the_latest_hands():
    record = HandRecord(user_id=1)
    for number in range(45):
        change = {"team": number % 2, "levels": number % 3}
        add_hand(
            record, SeatHand(seat=0, dealer=0, level_change=change, kitty_bonus=0, defenders_score=0, levels_after=None)
        )
    assert len(record.latest_levels) == 40
    assert record.latest_levels[-1] == 44 % 3 * (1 if 44 % 2 == 0 else -1)


def test_the_write_path_keeps_the_records_a_rebuild_reproduces(players, settings):
    settings.GAMES_NEXT_HAND_DELAY_MS = 0
    table = make_table(players[0], players=players, pace_ms=1, window_ms=0)
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=players[0])
    drive(table.pk, dict(enumerate(players)), lambda game: game.hand_no >= 3)
    hands = list(Hand.objects.filter(match__table=table, finished_at__isnull=False))
    assert len(hands) == 2
    for seat, user in enumerate(players):
        record = HandRecord.objects.get(user=user)
        assert record.dealt + record.as_defender == 2
        assert record.as_dealer == sum(hand.dealer == seat for hand in hands)
        stats = profile_stats(user)
        assert stats["as_dealer"]["hands"] == record.dealt and len(stats["levels_per_hand"]) == 2
    out = io.StringIO()
    call_command("hand_records_rebuild", "--check", stdout=out)
    assert "4 hand records recomputed; 0 stored rows differed" in out.getvalue()


def test_a_rebuild_repairs_a_record_that_drifted(players, settings):
    settings.GAMES_NEXT_HAND_DELAY_MS = 0
    table = make_table(players[0], players=players, pace_ms=1, window_ms=0)
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=players[0])
    drive(table.pk, dict(enumerate(players)), lambda game: game.hand_no >= 2)
    kept = HandRecord.objects.get(user=players[1])
    HandRecord.objects.filter(user=players[1]).update(dealt=99)
    assert hand_records_rebuild() == (4, 1)
    repaired = HandRecord.objects.get(user=players[1])
    assert (repaired.dealt, repaired.latest_levels) == (kept.dealt, kept.latest_levels)
