"""Reads of duplicate events (docs/events.md): who may see an event, the standings from the
stored board results, and a finished event's results."""

from typing import Any

from django.db.models import Q, QuerySet

from games.duplicate.models import BoardResult, Entry, Event, EventTable
from games.duplicate.scoring import Standing, TableResult, standings
from games.duplicate.watching import sorted_holdings
from games.models import Table


def event_table_results(event: Event) -> list[TableResult]:
    """Every table's result on every board played so far, adjusted where a moderator did;
    entrants are entry ids (a pair's at both of its seats), None a bot."""
    rows = BoardResult.objects.filter(board__event=event).select_related("board", "event_table")
    return [table_result(row) for row in rows]


def table_result(row: BoardResult) -> TableResult:
    """A stored result as scoring compares it, adjusted where a moderator did."""
    return TableResult(
        board=row.board.number,
        table=row.event_table.table_id,
        seats=tuple(row.event_table.seats),
        dealer=row.board.dealer,
        defenders_score=row.scored_score,
        level_change=row.scored_level_change,
    )


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
        return {"state": "entered" if entry.checked_in_at is None else "checked_in", "entry": entry}
    invited = entry.partner_id == user.pk
    other = entry.player if invited else entry.partner
    return {"state": "invited" if invited else "asked", "entry": entry, "other": other.username if other else "?"}


def entry_names(event: Event) -> dict[Any, str]:
    """Each entry's name: its player's, or a pair's two names."""
    names = {}
    for entry in event.entries.select_related("player", "partner"):
        people = [entry.player.username] + ([entry.partner.username] if entry.partner else [])
        names[entry.pk] = " & ".join(people)
    return names


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


def finished_results(event: Event) -> list[dict]:
    """Each board of a finished event with every table's result on it (hands for the replay
    links): shown only once every table has played every board (RULES §9)."""
    if event.status != Event.Status.FINISHED:
        return []
    names = entry_names(event)
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


def current_tables(event: Event) -> list[dict]:
    """The current round's tables, each with its two sides' names (None: a bot)."""
    if not event.current_round:
        return []
    names = entry_names(event)
    rows = EventTable.objects.filter(round__event=event, round__number=event.current_round).order_by("number")
    return [
        {
            "id": at.pk,
            "number": at.number,
            "north_south": _side_name(names, at.seats[0], at.seats[2]),
            "east_west": _side_name(names, at.seats[1], at.seats[3]),
        }
        for at in rows
    ]
