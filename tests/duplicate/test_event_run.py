"""A whole small event through the real write path: four pairs (eight people) at two
tables, two rounds of two boards. People's turns are played as their users, the timed
steps and bots as the clock submits them (tests/table_driver.py `drive`). Every board is
dealt at every table from its fixed deck, dealer and levels; each table's log folds to its
snapshot; the standings equal a computation from the hands' own records."""

from collections import defaultdict
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import engine
from games.duplicate import service
from games.duplicate.models import BoardResult, Entry, Event, EventBoard, EventTable
from games.duplicate.selectors import event_standings
from games.models import Hand, Table
from tests.conftest import make_user
from tests.duplicate.events import an_event, pairs_entered
from tests.table_driver import drive, fold_log

pytestmark = [pytest.mark.django_db, pytest.mark.events]


def play_round(event_round):
    """Drive each table of the round until its last board is scored and the table is done."""
    for at in EventTable.objects.filter(round=event_round).select_related("table"):
        users = {s.position: s.user for s in at.table.seats.select_related("user") if s.user_id}
        boards = len(at.boards)
        drive(at.table.pk, users, lambda game, n=boards: game.phase == "scored" and game.hand_no == n)
        drive_to_done(at.table.pk)


def drive_to_done(table_id):
    """The clock's next step after the last board: the table ends (games/runtime/play.py)."""
    from games.runtime import writer
    from games.runtime.commands import Issuer

    table = Table.objects.get(pk=table_id)
    writer.table_act(
        table_id=table_id, action={"type": "start_hand"}, expected_version=table.version, issuer=Issuer.CLOCK
    )
    assert Table.objects.get(pk=table_id).status == Table.Status.FINISHED


def hand_score(hand, team):
    """(levels won, points) from team `team`'s view, from the Hand record alone."""
    change = hand.level_change
    levels = change["levels"] if change["team"] == team else -change["levels"]
    defending = hand.dealer % 2 != team
    return levels, hand.defenders_score if defending else -hand.defenders_score


def expected_standings(event):
    """Matchpoints from the Hand records: per board and direction, each side's (levels won,
    defenders' points) from its own view, 2 for each result beaten, 1 for each tie."""
    results = defaultdict(list)  # board -> [(seats, hand)]
    for at in EventTable.objects.filter(round__event=event):
        for hand in Hand.objects.filter(match__table=at.table, finished_at__isnull=False):
            results[at.boards[hand.number - 1]].append((at.seats, hand))
    points, tops = defaultdict(int), defaultdict(int)
    for played in results.values():
        for team in (0, 1):
            scores = [hand_score(hand, team) for _seats, hand in played]
            for (seats, _hand), mine in zip(played, scores):
                mp = sum(2 if mine > other else 1 if mine == other else 0 for other in scores) - 1
                for entry in {seats[team], seats[team + 2]} - {None}:
                    points[entry] += mp
                    tops[entry] += 2 * (len(played) - 1)
    return {entry: (points[entry], tops[entry]) for entry in points}


def test_a_small_event_runs_from_registration_to_standings(settings):
    from tests.bots.test_bots import expert_work

    settings.GAMES_ANALYSIS_BUDGET = expert_work(300)  # the smallest search
    settings.GAMES_NEXT_HAND_DELAY_MS = 0
    settings.GAMES_BOT_DELAY_MS = 0
    settings.GAMES_DEAL_LEAD_IN_MS = 0
    event = an_event(rounds=2, boards_per_round=2)
    people = [make_user(f"club{i}") for i in range(8)]
    pairs_entered(event, people)

    for number in (1, 2):
        event_round = service.event_start_round(event_id=event.pk)
        assert event_round.number == number
        play_round(event_round)
        event_round.refresh_from_db()
        assert event_round.finished_at is not None
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    with pytest.raises(engine.Refusal):
        service.event_start_round(event_id=event.pk)

    boards = {b.number: b for b in EventBoard.objects.filter(event=event)}
    played = defaultdict(list)  # entry -> boards it played
    for at in EventTable.objects.filter(round__event=event).select_related("table"):
        assert fold_log(at.table.pk) == Table.objects.get(pk=at.table.pk).state  # the log folds
        hands = list(Hand.objects.filter(match__table=at.table).order_by("number"))
        assert [h.number for h in hands] == [1, 2] and all(h.finished_at for h in hands)
        assert at.table.matches.get().finished_at is not None
        for hand, number in zip(hands, at.boards):
            board = boards[number]
            # every board at every table of its round, from its deck, dealer and levels
            assert hand.deck == engine.shuffled_deck(board.seed)
            assert (hand.dealer, hand.levels_before) == (board.dealer, board.levels)
            result = BoardResult.objects.get(event_table=at, board=board)
            assert (result.hand_id, result.defenders_score) == (hand.pk, hand.defenders_score)
        seats = list(at.table.seats.order_by("position"))
        for position, entry_id in enumerate(at.seats):
            entry = Entry.objects.get(pk=entry_id)  # four pairs: no bots
            assert seats[position].user_id == (entry.player_id if position < 2 else entry.partner_id)
        for entry_id in set(at.seats):
            played[entry_id].extend(at.boards)
    assert BoardResult.objects.filter(board__event=event).count() == 4 * 2  # 4 boards x 2 tables
    for entry_boards in played.values():
        assert sorted(entry_boards) == [1, 2, 3, 4]  # every board once, none twice
    # both directions of every board: its two tables seat different pairs each way
    for number in boards:
        tables = EventTable.objects.filter(round__event=event, boards__contains=[number])
        assert len({at.seats[0] for at in tables}) == len({at.seats[1] for at in tables}) == 2

    standings = event_standings(event)
    assert {s.entrant: (s.matchpoints, s.top) for s in standings} == expected_standings(event)
    assert all(s.top == 4 * 2 for s in standings)  # 4 boards, one other result each
    # each hand's replay and the match file fold the board tables' logs; for its players only
    from django.test import Client
    from django.urls import reverse

    first = EventTable.objects.filter(round__event=event).select_related("table").first()
    match = first.table.matches.get()
    player, stranger = Client(), Client()
    player.force_login(first.table.seats.get(position=0).user)
    other = EventTable.objects.filter(round=first.round).exclude(pk=first.pk).get()
    stranger.force_login(other.table.seats.get(position=0).user)
    for hand in match.hands.all():
        assert player.get(reverse("hand_replay", args=[hand.pk])).status_code == 200
        assert stranger.get(reverse("hand_replay", args=[hand.pk])).status_code == 404
    assert player.get(reverse("match_detail", args=[match.pk])).status_code == 200
    exported = player.get(reverse("match_export", args=[match.pk]))
    assert exported.status_code == 200 and len(exported.json()["hands"]) == 2
    from games.analysis.models import HandAnalysis
    from games.analysis.service import hand_analyse

    second_board = match.hands.get(number=2)  # its log starts with the first board's hand
    assert hand_analyse(hand_id=second_board.pk).status == HandAnalysis.Status.DONE
    # the tables' owner is the events account, which nobody can log in as
    assert get_user_model().objects.filter(username="~events", is_active=False).exists()


def test_when_the_rounds_time_is_up_bots_finish_its_tables(settings):
    settings.GAMES_NEXT_HAND_DELAY_MS = 0
    settings.GAMES_BOT_DELAY_MS = 0
    settings.GAMES_DEAL_LEAD_IN_MS = 0
    from games.models import Seat
    from games.runtime import writer

    event = an_event(
        name="Short round", kind="individual", boards_per_round=2, round_minutes=5, starts_at=timezone.now()
    )
    people = [make_user(f"solo{i}") for i in range(6)]  # two tables, two bots
    for person in people:
        service.event_register(event_id=event.pk, user=person)
        service.event_check_in(event_id=event.pk, user=person)
    event_round = service.event_start_round(event_id=event.pk)
    assert service.event_round_time_up(event_id=event.pk) == []  # minutes remain: nothing changes
    assert not Seat.objects.filter(autoplay=True).exists()

    later = event_round.ends_at + timedelta(seconds=1)
    handed = service.event_round_time_up(event_id=event.pk, now=later)
    tables = list(EventTable.objects.filter(round=event_round).select_related("table"))
    assert sorted(handed) == sorted(at.table_id for at in tables)
    assert set(Seat.objects.filter(table__in=handed).exclude(user=None).values_list("autoplay", flat=True)) == {True}
    # nobody takes their seat back once the round's end has passed
    type(event_round).objects.filter(pk=event_round.pk).update(ends_at=timezone.now())
    person_seat = Seat.objects.filter(table=tables[0].table).exclude(user=None).first()
    table = Table.objects.get(pk=tables[0].table_id)
    with pytest.raises(engine.Refusal) as refused:
        writer.table_act(table_id=table.pk, action={"type": "resume"}, expected_version=None, user=person_seat.user)
    assert refused.value.code == "round_time_up"
    play_round(event_round)  # the clock's bots play every seat: the drive plays for nobody
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert BoardResult.objects.filter(board__event=event).count() == 2 * 2
    assert all(r.stand_ins for r in BoardResult.objects.filter(board__event=event))  # the absences recorded
    assert {s.entrant for s in event_standings(event)} == set(Entry.objects.values_list("pk", flat=True))
