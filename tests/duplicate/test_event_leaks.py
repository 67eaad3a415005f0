"""Hidden information across an event's tables (RULES §9, issue #42): two tables play the
same board at once through real websockets; a table's sockets are shown nothing but their
own seat's cards and what their own table made public, whatever the other table did with
the same board, and nobody can open a table they do not play at."""

import asyncio

import pytest
from asgiref.sync import sync_to_async

from games.duplicate import service
from games.duplicate.models import EventTable
from tests.conftest import WsClient, make_user, session_cookie, ws_client
from tests.duplicate.events import an_event, organiser, pairs_entered
from tests.table_driver import cards_in, load, own_cards, play_until, public_cards_by_version

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.events]


@sync_to_async
def running_event():
    staff = organiser()
    event = an_event(staff, name="Leak check", boards_per_round=2, last_chance_ms=50)
    pairs_entered(event, [make_user(f"pl{i}") for i in range(8)])
    service.event_start_round(event_id=event.pk)
    tables = []
    for at in EventTable.objects.select_related("table").order_by("number"):
        seats = {s.position: s.user for s in at.table.seats.select_related("user")}
        tables.append((at.table, seats))
    return staff, tables


def assert_no_leak(clients, table_state, dealer, public):
    seen_any = False
    for seat, client in clients.items():
        mine = own_cards(table_state, seat, dealer)
        for message in client.received:
            codes = cards_in(message)
            version = message.get("version", max(public))
            allowed = mine | public[max(v for v in public if v <= version)]
            assert not set(codes) - allowed, f"seat {seat} was shown {set(codes) - allowed} at version {version}"
            seen_any = seen_any or bool(codes)
    assert seen_any  # the check is not vacuous


async def test_a_table_finishing_a_board_shows_the_other_table_nothing(settings):
    settings.GAMES_BOT_DELAY_MS = 0
    settings.GAMES_NEXT_HAND_DELAY_MS = 60_000
    settings.GAMES_DEAL_LEAD_IN_MS = 0
    organiser, ((one, one_seats), (two, two_seats)) = await running_event()

    # Nobody opens a table they do not play at: not a player of the other table, not the organiser.
    for outsider in (two_seats[0], organiser):
        cookie = await sync_to_async(session_cookie)(outsider)
        refused = WsClient(f"/ws/table/{one.pk}/", cookie=cookie)
        connected, _ = await refused.connect()
        assert not connected

    # Spectators of table one, over the event's watch socket: the organiser and a player of the
    # other table, who is about to play the same board.
    one_at = await sync_to_async(EventTable.objects.select_related("round").get)(table=one)
    watch_path = f"/ws/event/{one_at.round.event_id}/tables/{one_at.pk}/"
    spectators = [await ws_client(watch_path, person) for person in (organiser, two_seats[0])]
    clients_one = {seat: await ws_client(f"/ws/table/{one.pk}/", user) for seat, user in one_seats.items()}
    clients_two = {seat: await ws_client(f"/ws/table/{two.pk}/", user) for seat, user in two_seats.items()}
    # Table one plays the first board to its end; table two is dealt the same board meanwhile.
    await play_until(clients_one, one.pk, lambda g: g.phase == "scored", timeout=120)
    await asyncio.sleep(0.3)
    for client in (*clients_one.values(), *clients_two.values(), *spectators):
        await client.drain()

    state_one, game_one = await load(one.pk)
    state_two, game_two = await load(two.pk)
    assert game_one.deck == game_two.deck and game_two.phase != "scored"  # the same board, unfinished there
    assert_no_leak(clients_one, state_one.state, game_one.dealer, await public_cards_by_version(one.pk))
    assert_no_leak(clients_two, state_two.state, game_two.dealer, await public_cards_by_version(two.pk))
    # The spectators were told table one finished board 1, and shown nothing of it.
    for spectator in spectators:
        assert all(m["type"] == "watch" and not cards_in(m) for m in spectator.received)
        assert 'data-testid="watch-board-1" data-state="played"' in spectator.received[-1]["html"]
    for client in (*clients_one.values(), *clients_two.values(), *spectators):
        await client.close()


@pytest.mark.django_db
def test_while_the_round_is_played_only_a_tables_players_see_its_finished_hands(settings):
    """Not even staff (the organiser) see a replay of a board another table may still be playing."""
    from games.duplicate.models import EventRound
    from games.history.matches import match_access
    from tests.duplicate.test_event_run import play_round

    settings.GAMES_NEXT_HAND_DELAY_MS = 0
    settings.GAMES_BOT_DELAY_MS = 0
    settings.GAMES_DEAL_LEAD_IN_MS = 0
    organiser, ((one, one_seats), (_two, two_seats)) = running_event.__wrapped__()
    match = one.matches.get()
    assert match_access(match=match, user=one_seats[0])
    assert not match_access(match=match, user=organiser) and not match_access(match=match, user=two_seats[0])
    play_round(EventRound.objects.get())
    assert match_access(match=match, user=organiser)  # the round is over: as any private table
    assert not match_access(match=match, user=two_seats[0])


@pytest.mark.django_db
def test_a_spectator_sees_a_board_only_once_every_table_has_played_it(client, settings):
    """The watch page shows a board's cards once no table of the round can still play it:
    not while one table has finished it and the other has not."""
    from games.duplicate import watching
    from games.duplicate.models import EventRound
    from tests.table_driver import CARD_ATTR, drive

    settings.GAMES_NEXT_HAND_DELAY_MS = 0
    settings.GAMES_BOT_DELAY_MS = 0
    settings.GAMES_DEAL_LEAD_IN_MS = 0
    _organiser, ((one, one_seats), (two, two_seats)) = running_event.__wrapped__()
    one_at = EventTable.objects.get(table=one)
    page = f"/events/{one_at.round.event_id}/tables/{one_at.pk}/"
    client.force_login(two_seats[0])

    drive(one.pk, one_seats, lambda g: g.phase == "scored" and g.hand_no == 1)
    assert watching.released_boards(one_at.round) == set()
    html = client.get(page).content.decode()
    assert 'data-testid="watch-board-1" data-state="played"' in html and not CARD_ATTR.findall(html)

    drive(two.pk, two_seats, lambda g: g.phase == "scored" and g.hand_no == 1)
    assert watching.released_boards(EventRound.objects.get()) == {1}
    html = client.get(page).content.decode()
    assert 'data-testid="watch-board-1" data-state="released"' in html
    assert 'data-testid="watch-board-2" data-state="released"' not in html
    deck = one.matches.get().hands.get(number=1).deck  # the cards shown are the deal's
    assert sorted(CARD_ATTR.findall(html)) == sorted(deck)
