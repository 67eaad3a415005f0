"""What a finished hand causes is subscribed to, not called (games/runtime/outbox.py): the
write path publishes "hand scored" and "match ended" in the table's transaction, and each
subscriber (hand records, analysis, an event's board result, ratings) has each event once,
after the commit, even when the process that committed dies before telling them."""

import json
import os
import random
import signal
import subprocess
import sys
from datetime import timedelta

import pytest
from django.core.management import call_command

from games import engine
from games.analysis.models import HandAnalysis
from games.history.models import HandRecord
from games.models import Delivery, DomainEvent, Hand, Table
from games.ratings.models import RatedMatch, RatingChange
from games.runtime import outbox, writer
from tests import servers
from tests.conftest import make_table
from tests.table_driver import choose_action, drive

pytestmark = pytest.mark.django_db(transaction=True)


def last_play_of_a_deciding_hand(players):
    """A rated table of four people at the hand's last play, both teams at A before it (RULES
    §8.4): the play scores the hand and ends the match."""
    table = make_table(players[0], players=players, pace_ms=1, window_ms=0, rated=True)
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=players[0])
    table = Table.objects.get(pk=table.pk)
    game = engine.Game.from_json(table.state)
    game.levels = {"0": "A", "1": "A"}
    Table.objects.filter(pk=table.pk).update(state=game.to_json())
    return drive(table.pk, dict(enumerate(players)), last_play)


def last_play(game) -> bool:
    """Three have played to the hand's last trick: only the fourth holds cards."""
    others = [hand for seat, hand in enumerate(game.hands or []) if seat != game.turn]
    return game.phase == "play" and len(game.trick or []) == 3 and not any(others)


def consequences(table_id):
    hand = Hand.objects.get(match__table_id=table_id)
    people = [p.user_id for p in hand.match.seating.all()]
    return {
        "hand_records": HandRecord.objects.filter(user_id__in=people).count(),
        "hands_in_records": sum(r.dealt + r.as_defender for r in HandRecord.objects.filter(user_id__in=people)),
        "analyses": HandAnalysis.objects.filter(hand=hand).count(),
        "rated": RatedMatch.objects.filter(match=hand.match).count(),
        "rating_changes": RatingChange.objects.filter(rated_match__match=hand.match).count(),
    }


def test_a_process_killed_between_the_commit_and_the_subscribers_loses_nothing(players, settings):
    settings.GAMES_ANALYSIS = True
    table, game = last_play_of_a_deciding_hand(players)
    seat = game.turn
    action = {"type": "play", "cards": choose_action(game, seat, random.Random(1))["cards"]}
    env = {
        "DATABASE_URL": servers.test_database_url(),
        "CACHE_KEY_PREFIX": servers.server_cache_prefix(),
        "GAMES_ANALYSIS": "1",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.runtime.outbox_cut", str(table.pk), str(table.version), str(players[seat].pk)]
        + [json.dumps(action)],
        cwd=servers.ROOT,
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stdout.readline()
        assert line.startswith("committed"), line + process.stderr.read()[-3000:]
        published = json.loads(line.split(" ", 1)[1])
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(10)

    # The step committed: the hand is scored, the match won, both events are written...
    match_row = Hand.objects.get(match__table=table).match
    assert match_row.winner_team is not None and Hand.objects.get(match=match_row).finished_at is not None
    events = DomainEvent.objects.filter(table=table).order_by("pk")
    assert [e.kind for e in events] == ["hand_scored", "match_ended"] and [e.pk for e in events] == published
    # ...and nothing reacted to them yet.
    assert consequences(table.pk) == {
        "hand_records": 0,
        "hands_in_records": 0,
        "analyses": 0,
        "rated": 0,
        "rating_changes": 0,
    }
    assert not Delivery.objects.exists()

    # A restart: the analysis worker delivers what is pending as it starts, once.
    settings.GAMES_ANALYSIS_BUDGET = 1
    call_command("analysis_worker", batch=True, verbosity=0)
    done = {"hand_records": 4, "hands_in_records": 4, "analyses": 1, "rated": 1, "rating_changes": 4}
    assert consequences(table.pk) == done
    assert all(e.delivered_at is not None for e in DomainEvent.objects.filter(table=table))
    assert sorted(Delivery.objects.values_list("subscriber", flat=True)) == sorted(
        [*outbox.SUBSCRIBERS["hand_scored"], *outbox.SUBSCRIBERS["match_ended"]]
    )
    # Delivering again, by whoever, changes nothing.
    DomainEvent.objects.filter(table=table).update(delivered_at=None)
    outbox.deliver_pending(older_than=timedelta(0))
    call_command("analysis_worker", batch=True, verbosity=0)
    assert consequences(table.pk) == done


def test_the_write_path_delivers_at_once_and_a_failed_subscriber_is_retried(players, settings, monkeypatch):
    settings.GAMES_ANALYSIS = False
    table, game = last_play_of_a_deciding_hand(players)
    failing = {"times": 1}

    def flaky(event):
        if failing["times"]:
            failing["times"] -= 1
            raise RuntimeError("a subscriber's bad moment")

    # First in line, so that the rating after it shows a failure stops no other subscriber.
    monkeypatch.setitem(outbox.SUBSCRIBERS, "match_ended", {"test.flaky": flaky, **outbox.SUBSCRIBERS["match_ended"]})
    seat = game.turn
    action = {"type": "play", "cards": choose_action(game, seat, random.Random(1))["cards"]}
    writer.table_act(table_id=table.pk, action=action, expected_version=table.version, user=players[seat])
    # Everything but the failed subscriber happened with the action, each in its own transaction.
    assert consequences(table.pk)["rated"] == 1 and consequences(table.pk)["hand_records"] == 4
    scored, ended = DomainEvent.objects.filter(table=table).order_by("pk")
    assert scored.delivered_at is not None and ended.delivered_at is None
    assert not Delivery.objects.filter(subscriber="test.flaky").exists()
    outbox.deliver_pending(older_than=timedelta(0))
    assert Delivery.objects.filter(event=ended, subscriber="test.flaky").count() == 1
    assert DomainEvent.objects.get(pk=ended.pk).delivered_at is not None
    assert consequences(table.pk)["rating_changes"] == 4


def test_an_autoplayed_seat_at_the_hands_end_is_kept_with_its_event(players):
    table, game = last_play_of_a_deciding_hand(players)
    table.seats.filter(position=(game.turn + 1) % 4).update(autoplay=True)
    seat = game.turn
    action = {"type": "play", "cards": choose_action(game, seat, random.Random(1))["cards"]}
    writer.table_act(table_id=table.pk, action=action, expected_version=table.version, user=players[seat])
    scored = DomainEvent.objects.get(table=table, kind="hand_scored")
    assert scored.facts == {"autoplay": [(game.turn + 1) % 4]}
