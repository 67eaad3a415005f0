"""Reads of duplicate events (docs/events.md): who may see an event, the standings from the
stored board results, and a finished event's results."""

from typing import Any

from django.db.models import Q, QuerySet

from games.boards.results import event_table_results
from games.boards.scoring import Standing, standings
from games.duplicate.models import BoardResult, Entry, Event, EventTable
from games.duplicate.watching import sorted_holdings
from games.models import Table


def event_standings(event: Event) -> list[Standing]:
    return standings(event_table_results(event))


def visible_events(user) -> QuerySet[Event]:
    """Public events, and the private ones the user created or is entered in."""
    mine = Q(created_by=user.pk) | Q(entries__player=user.pk) | Q(entries__partner=user.pk)
    shown = Q(is_private=False) | mine if user.is_authenticated else Q(is_private=False)
    return Event.objects.filter(shown).distinct().order_by("starts_at", "pk")


def event_access(*, event: Event, user) -> bool:
    return visible_events(user).filter(pk=event.pk).exists()


def entry_of(event: Event, user) -> Entry | None:
    if not user.is_authenticated:
        return None
    return event.entries.filter(Q(player=user) | Q(partner=user)).first()


def registration_of(event: Event, user) -> dict | None:
    """The reader's part in the registration: "invited" (named as a partner, not confirmed
    yet), "asked" (named a partner who has not confirmed yet), "entered" or "checked_in";
    `other` the other player's name while a pair waits. None: not entered (or not signed in)."""
    entry = entry_of(event, user)
    if entry is None:
        return None
    if entry.confirmed:
        return {"state": "entered" if entry.checked_in_at is None else "checked_in"}
    invited = entry.partner_id == user.pk
    other = entry.player if invited else entry.partner
    return {"state": "invited" if invited else "asked", "other": other.username if other else "?"}


def entry_list(event: Event) -> list[tuple[Any, str, bool, bool]]:
    """Each entry as (id, name, checked in, confirmed), in the order of registration: a name
    is its player's, or a pair's two names; a pair is confirmed once the partner said yes
    (Entry.confirmed)."""
    rows = event.entries.order_by("pk").values_list(
        "pk", "player__username", "partner__username", "checked_in_at", "partner_confirmed_at"
    )
    return [
        (
            pk,
            f"{player} & {partner}" if partner else player,
            checked_in_at is not None,
            not partner or bool(confirmed_at),
        )
        for pk, player, partner, checked_in_at, confirmed_at in rows
    ]


def entry_names(event: Event) -> dict[Any, str]:
    return {pk: name for pk, name, *_ in entry_list(event)}


def user_table(event: Event, user) -> Table | None:
    """The table the user plays at in the event's current round, if any."""
    if not user.is_authenticated or not event.current_round:
        return None
    return (
        Table.objects.filter(
            event_table__round__event=event, event_table__round__number=event.current_round, seats__user=user
        )
        .exclude(status=Table.Status.CLOSED)
        .first()
    )


def finished_results(event: Event, names: dict[Any, str]) -> list[dict]:
    """Each board of a finished event with every table's result on it (hands for the replay
    links): shown only once every table has played every board (RULES §9). `names`: the
    entries' (entry_names)."""
    if event.status != Event.Status.FINISHED:
        return []
    rows = (
        BoardResult.objects.filter(board__event=event)
        .select_related("board", "event_table")
        .order_by("board__number", "event_table__round__number", "event_table__number")
    )
    rules = event.game_rules()
    boards: dict[int, dict] = {}
    for row in rows:
        if row.board.number not in boards:
            held, kitty = sorted_holdings(row.board.board(rules))  # every table has played it
            boards[row.board.number] = {
                "number": row.board.number,
                "dealer": row.board.dealer,
                "levels": (row.board.levels["0"], row.board.levels["1"]),  # North-South, East-West
                "held": held,
                "kitty": kitty,
                "results": [],
            }
        board = boards[row.board.number]
        seats = row.event_table.seats
        board["results"].append(
            {
                "north_south": _side_name(names, seats[0], seats[2]),
                "east_west": _side_name(names, seats[1], seats[3]),
                "defenders_score": row.scored_score,
                "adjusted": row.adjusted_score is not None,
                "hand_id": row.hand_id,
            }
        )
    return list(boards.values())


def _side_name(names: dict[Any, str], first, second) -> list[str | None]:
    """The side's entries' names (a pair's once), None for a bot."""
    return [names[e] if e is not None else None for e in dict.fromkeys((first, second))]


def current_tables(event: Event, names: dict[Any, str]) -> list[dict]:
    """The current round's tables, each with its two sides' names (None: a bot). `names`:
    the entries' (entry_names)."""
    if not event.current_round:
        return []
    rows = (
        EventTable.objects.filter(round__event=event, round__number=event.current_round)
        .order_by("number")
        .values_list("pk", "number", "seats")
    )
    return [
        {
            "id": pk,
            "number": number,
            "north_south": _side_name(names, seats[0], seats[2]),
            "east_west": _side_name(names, seats[1], seats[3]),
        }
        for pk, number, seats in rows
    ]
