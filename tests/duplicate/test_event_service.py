"""Duplicate events through their one write path: creating, registering, checking in and
starting rounds refuse bad input and change nothing; a round's tables are real tables that
play the round's boards with the fixed decks; a moderator's adjustment is audit-logged."""

import itertools

import pytest

from games import engine
from games.duplicate import service
from games.duplicate.models import BoardResult, Entry, Event, EventBoard, EventTable
from games.duplicate.selectors import event_standings
from games.engine import Refusal
from games.models import Table
from games.moderation.models import ModerationLog
from games.runtime.commands import Issuer
from games.runtime.writer import table_act
from tests.conftest import make_moderator, make_user
from tests.duplicate.events import an_event, organiser
from tests.duplicate.events import pairs_entered as enter_pairs

pytestmark = [pytest.mark.django_db, pytest.mark.events]


@pytest.fixture
def staff():
    return organiser()


def new_event(staff, **options):
    return an_event(staff, **{"name": "Friday duplicate", "rounds": 2, "boards_per_round": 2, **options})


NAMES = itertools.count()


def pairs_entered(event, count, checked_in=True):
    users = [make_user(f"player{next(NAMES)}") for _ in range(2 * count)]
    enter_pairs(event, users, checked_in)
    return users


def test_an_event_is_created_with_its_boards(staff):
    event = new_event(staff)
    assert event.status == Event.Status.REGISTRATION
    boards = list(EventBoard.objects.filter(event=event))
    assert [b.number for b in boards] == [1, 2, 3, 4]
    assert len({b.seed for b in boards}) == 4 and all(event.seed in b.seed for b in boards)


@pytest.mark.parametrize(
    "options",
    [
        {"name": "  "},
        {"name": "x" * 61},
        {"kind": "teams"},
        {"rounds": 0},
        {"rounds": "2"},
        {"boards_per_round": 9},
        {"round_minutes": 1},
        {"preset": "nonesuch"},
        {"rated": True, "preset": "casual"},  # not a rateable preset
        {"bot_level": "random"},
    ],
)
def test_a_bad_event_is_refused_and_nothing_is_created(staff, options):
    with pytest.raises(Refusal):
        new_event(staff, **options)
    assert not Event.objects.exists() and not EventBoard.objects.exists()


def test_a_preset_whose_climb_can_win_the_match_is_refused(staff):
    unending = [name for name in engine.PRESETS if engine.preset_rules(name).must_play == "none"]
    for name in unending:
        with pytest.raises(Refusal) as refused:
            new_event(staff, preset=name)
        assert refused.value.code == "preset_not_for_events"


def test_a_rated_event_needs_a_rateable_preset(staff):
    with pytest.raises(Refusal) as refused:
        new_event(staff, rated=True, preset="casual")
    assert refused.value.code == "rules_unrated" and "Standard" in refused.value.message
    assert new_event(staff, rated=True, preset="qq").rated and not new_event(staff).rated


def test_only_staff_create_public_events_anyone_a_private_one():
    player = make_user("someone")
    with pytest.raises(Refusal):
        new_event(player)
    assert new_event(player, is_private=True).is_private


def test_registration_refuses_what_cannot_be(staff):
    event = new_event(staff)
    a, b, c = make_user("a"), make_user("b"), make_user("c")
    with pytest.raises(Refusal):
        service.event_register(event_id=event.pk, user=a)  # a pair registers together
    with pytest.raises(Refusal):
        service.event_register(event_id=event.pk, user=a, partner=a)
    service.event_register(event_id=event.pk, user=a, partner=b)
    for user, partner in ((c, a), (b, c), (a, c)):
        with pytest.raises(Refusal) as refused:
            service.event_register(event_id=event.pk, user=user, partner=partner)
        assert refused.value.code == "already_entered"
    with pytest.raises(Refusal):
        service.event_check_in(event_id=event.pk, user=c)  # not entered
    assert Entry.objects.filter(event=event).count() == 1
    individual = new_event(staff, kind="individual")
    with pytest.raises(Refusal):
        service.event_register(event_id=individual.pk, user=c, partner=a)
    assert not individual.entries.exists()


def test_the_named_partner_confirms_or_declines_the_pair(staff):
    event = new_event(staff)
    a, b, c = make_user("ca"), make_user("cb"), make_user("cc")
    entry = service.event_register(event_id=event.pk, user=a, partner=b)
    assert not entry.confirmed  # b is only invited
    for user in (a, c):  # the one who asked, a stranger: not addressed to them
        with pytest.raises(Refusal) as refused:
            service.event_partner_confirm(event_id=event.pk, user=user)
        assert refused.value.code == "no_invitation"
        with pytest.raises(Refusal):
            service.event_partner_decline(event_id=event.pk, user=user)
    for user in (a, b):  # not before b confirms
        with pytest.raises(Refusal) as refused:
            service.event_check_in(event_id=event.pk, user=user)
        assert refused.value.code == "pair_unconfirmed"
    entry.refresh_from_db()
    assert (entry.partner_confirmed_at, entry.checked_in_at) == (None, None)
    with pytest.raises(Refusal) as refused:
        service.event_register(event_id=event.pk, user=c, partner=b)  # b is invited already
    assert refused.value.code == "already_entered"
    assert service.event_partner_confirm(event_id=event.pk, user=b).confirmed
    with pytest.raises(Refusal):
        service.event_partner_decline(event_id=event.pk, user=b)  # confirmed: withdraw instead
    assert service.event_check_in(event_id=event.pk, user=a).checked_in_at is not None
    other = service.event_register(event_id=event.pk, user=c, partner=make_user("cd"))
    service.event_partner_decline(event_id=event.pk, user=other.partner)
    assert list(event.entries.all()) == [entry]


def test_an_invitation_still_open_at_the_start_is_not_seated(staff):
    event = new_event(staff)
    pairs_entered(event, 3)
    waiting = service.event_register(event_id=event.pk, user=make_user("asks"), partner=make_user("silent"))
    event_round = service.event_start_round(event_id=event.pk)
    seated = {entry for at in EventTable.objects.filter(round=event_round) for entry in at.seats}
    assert waiting.pk not in seated and len(seated - {None}) == 3
    with pytest.raises(Refusal) as refused:
        service.event_partner_confirm(event_id=event.pk, user=waiting.partner)
    assert refused.value.code == "registration_closed"


def test_a_round_needs_enough_entries_checked_in(staff):
    event = new_event(staff)
    pairs_entered(event, 2)
    pairs_entered(event, 2, checked_in=False)  # not here: not seated
    with pytest.raises(Refusal) as refused:
        service.event_start_round(event_id=event.pk)
    assert refused.value.code == "too_few_entries"
    assert not Table.objects.exists() and Event.objects.get(pk=event.pk).current_round == 0


def test_a_round_seats_the_movement_and_deals_the_boards(staff):
    event = new_event(staff)
    users = pairs_entered(event, 3)  # three pairs: two tables, one pair against bots
    event_round = service.event_start_round(event_id=event.pk)
    event.refresh_from_db()
    assert (event.status, event.current_round) == (Event.Status.RUNNING, 1)
    tables = list(EventTable.objects.filter(round=event_round).select_related("table"))
    assert len(tables) == 2
    seated = set()
    for at in tables:
        table = at.table
        assert table.status == Table.Status.PLAYING and table.is_private and table.owner.username == "~events"
        seats = list(table.seats.order_by("position"))
        for position, entry_id in enumerate(at.seats):
            if entry_id is None:
                assert seats[position].bot == event.bot_level
                continue
            entry = Entry.objects.get(pk=entry_id)
            assert seats[position].user_id == (entry.player_id if position < 2 else entry.partner_id)
            seated.add(seats[position].user_id)
        board = EventBoard.objects.get(event=event, number=at.boards[0])
        game = engine.Game.from_json(table.state)
        assert game.deck == engine.shuffled_deck(board.seed)
        assert (game.dealer, game.levels) == (board.dealer, board.levels)
    assert seated == {u.pk for u in users}
    with pytest.raises(Refusal) as refused:
        service.event_start_round(event_id=event.pk)  # round 1 is still being played
    assert refused.value.code == "round_running"
    with pytest.raises(Refusal):
        service.event_register(event_id=event.pk, user=make_user("late"), partner=make_user("later"))


def test_nobody_but_a_tables_players_may_open_it(staff):
    from games import selectors

    event = new_event(staff)
    pairs_entered(event, 4)
    service.event_start_round(event_id=event.pk)
    one, two = (at.table for at in EventTable.objects.select_related("table"))
    player_at_two = two.seats.exclude(user=None).first().user
    assert selectors.table_access(table=two, user=player_at_two)
    assert not selectors.table_access(table=one, user=player_at_two)
    assert not selectors.table_access(table=one, user=staff)  # the organiser does not own the tables


def test_a_moderator_adjusts_a_result_with_a_reason_in_the_audit_log(staff):
    event = new_event(staff)
    pairs_entered(event, 3)
    service.event_start_round(event_id=event.pk)
    at = EventTable.objects.first()
    board = EventBoard.objects.get(event=event, number=1)
    result = BoardResult.objects.create(
        event_table=at, board=board, defenders_score=40, level_change={"team": board.dealer % 2, "levels": 1}
    )
    moderator = make_moderator()
    with pytest.raises(Refusal):
        service.result_adjust(moderator=moderator, result_id=result.pk, defenders_score=90, reason=" ")
    with pytest.raises(Refusal):
        service.result_adjust(moderator=moderator, result_id=result.pk, defenders_score="90", reason="x")
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        service.result_adjust(moderator=staff, result_id=result.pk, defenders_score=90, reason="x")
    result.refresh_from_db()
    assert result.adjusted_score is None and not ModerationLog.objects.exists()
    service.result_adjust(moderator=moderator, result_id=result.pk, defenders_score=90, reason="a  revoke\nconceded")
    result.refresh_from_db()
    assert result.scored_score == 90 and result.defenders_score == 40
    assert result.scored_level_change == {"team": 1 - board.dealer % 2, "levels": 0}  # taken over (§7.2)
    log = ModerationLog.objects.get()
    assert (log.action, log.reason, log.table_id) == ("adjust_result", "a revoke conceded", at.table_id)
    assert log.details == {"event_id": event.pk, "board": 1, "result_id": result.pk, "from": 40, "to": 90}
    (standing,) = [s for s in event_standings(event) if s.entrant == at.seats[0]]
    assert standing.boards == 1


def test_the_place_command_is_the_servers_alone(staff):
    event = new_event(staff)
    pairs_entered(event, 3)
    table = Table.objects.create(owner=staff, name="t", is_private=True)
    for position in range(4):
        table.seats.create(position=position)
    person = make_user("walk-in")
    with pytest.raises(Refusal):
        table_act(
            table_id=table.pk, action={"type": "place", "seat": 0, "user": person.pk}, expected_version=0, user=staff
        )
    for bad in ({"seat": 4, "user": person.pk}, {"seat": 0, "user": "x"}, {"seat": 0, "user": 10**9}):
        with pytest.raises(Refusal):
            table_act(table_id=table.pk, action={"type": "place", **bad}, expected_version=0, issuer=Issuer.SYSTEM)
    table_act(
        table_id=table.pk,
        action={"type": "place", "seat": 0, "user": person.pk},
        expected_version=0,
        issuer=Issuer.SYSTEM,
    )
    with pytest.raises(Refusal):
        table_act(
            table_id=table.pk,
            action={"type": "place", "seat": 1, "user": person.pk},
            expected_version=1,
            issuer=Issuer.SYSTEM,
        )
    assert list(table.seats.order_by("position").values_list("user", flat=True)) == [person.pk, None, None, None]


def test_a_board_result_records_the_seats_a_bot_played_for_an_absent_player(staff):
    from games.duplicate import table_boards
    from games.models import Hand

    event = new_event(staff)
    pairs_entered(event, 3)
    service.event_start_round(event_id=event.pk)
    at = EventTable.objects.select_related("table").first()
    people = [p for p in (1, 2) if at.seats[p] is not None]
    Hand.objects.filter(match__table=at.table, number=1).update(
        defenders_score=85, level_change={"team": 1, "levels": 0}
    )
    hand = Hand.objects.get(match__table=at.table, number=1)
    # The seats autoplayed when the hand was scored, as its "hand scored" event keeps them.
    table_boards.board_scored(at.table, hand, stand_ins=people)
    result = BoardResult.objects.get(event_table=at)
    assert result.board.number == at.boards[0] and result.hand == hand
    assert (result.defenders_score, result.level_change) == (85, {"team": 1, "levels": 0})
    assert result.stand_ins == people


def test_an_entry_withdraws_while_registration_is_open_and_not_after(staff):
    event = new_event(staff)
    a, b, c, stranger = (make_user(n) for n in ("wa", "wb", "wc", "wstranger"))
    service.event_register(event_id=event.pk, user=a, partner=b)
    with pytest.raises(Refusal) as refused:
        service.event_withdraw(event_id=event.pk, user=stranger)
    assert refused.value.code == "not_entered" and event.entries.count() == 1
    service.event_withdraw(event_id=event.pk, user=b)  # either player of the pair
    assert not event.entries.exists()
    service.event_register(event_id=event.pk, user=a, partner=c)  # free to enter again
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    with pytest.raises(Refusal) as refused:
        service.event_withdraw(event_id=event.pk, user=a)
    assert refused.value.code == "registration_closed" and event.entries.count() == 1
