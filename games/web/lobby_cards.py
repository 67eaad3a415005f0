"""One lobby card per table, in words: seats (who, never cards), status, options, watchers."""

from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import bot_levels, rulesets
from games.models import Table
from games.runtime import presence
from games.web.forms import deal_seconds
from games.words.seats import SEAT_NAMES

# A running table whose clock is this late, or where nothing happened for this long, has
# nobody driving it: the clock runs only while someone is connected (games/runtime/runner.py).
CLOCK_LATE = timedelta(seconds=30)
IDLE_FOR = timedelta(minutes=5)


def seat_label(seat) -> dict:
    """`{"where": "East", "who": "strong bot", "kind": "bot"}` for one seat."""
    where = str(SEAT_NAMES[seat.position])
    if seat.user_id:
        return {"where": where, "who": seat.user.username, "kind": "player", "user_id": seat.user_id}
    if seat.bot:
        return {"where": where, "who": bot_levels.seat_label(seat.bot), "kind": "bot", "user_id": None}
    return {"where": where, "who": _("free seat"), "kind": "free", "user_id": None}


def table_state(table, now=None, *, people_here: bool | None = None) -> tuple[str, str]:
    """(css key, words) for the table's status. `people_here`: whether any seated person has
    a socket open at this table (games/runtime/presence.py); None when no person sits there."""
    now = now or timezone.now()
    if table.status == Table.Status.PLAYING:
        if people_here:  # someone is there, however long they think
            return "playing", _("Playing")
        if people_here is False and not getattr(table, "watching", 0):  # not a socket open
            return "paused", _("Paused — nobody connected")
        # Only bots sit there, or spectators keep its clock going: judged by whether it moves.
        late = table.deadline is not None and table.deadline < now - CLOCK_LATE
        if late or table.updated_at < now - IDLE_FOR:
            return "paused", _("Paused — nobody connected")
        return "playing", _("Playing")
    if table.status == Table.Status.FINISHED:
        return "finished", _("Match over")
    return "waiting", _("Waiting for players")


def table_options(table) -> list[str]:
    # The pace as players feel it: how long the whole deal takes.
    if table.deal_pace_ms <= 100:
        pace = _("Fast deal (about %(s)s s)")
    elif table.deal_pace_ms <= 300:
        pace = _("Normal deal (about %(s)s s)")
    else:
        pace = _("Relaxed deal (about %(s)s s)")
    limit = (
        ngettext("%(s)s second a turn", "%(s)s seconds a turn", table.turn_limit_s) % {"s": table.turn_limit_s}
        if table.turn_limit_s
        else _("No turn time limit")
    )
    return [
        pace % {"s": max(1, deal_seconds(table.deal_pace_ms))},
        limit,
        _("Private") if table.is_private else _("Public"),
        _("Rated") if table.rated else _("Casual"),
        _("Bots allowed") if table.allow_bots else _("No bots"),
    ]


def lobby_cards(tables, user=None) -> list[dict]:
    """The cards of these tables, with one look-up of who is online for all of them."""
    tables = list(tables)
    people = {seat.user_id for table in tables for seat in table.seats.all() if seat.user_id}
    online = presence.where_online(people) if people else {}
    return [lobby_card(table, user, online=online) for table in tables]


def lobby_card(table, user, *, online: dict[int, int | None]) -> dict:
    """One table's card; `online`: presence.where_online() of (at least) its seated people."""
    seats = [seat_label(seat) for seat in sorted(table.seats.all(), key=lambda s: s.position)]
    taken = sum(1 for seat in seats if seat["kind"] != "free")
    people = [seat["user_id"] for seat in seats if seat["user_id"]]
    people_here = any(online.get(person) == table.pk for person in people) if people else None
    state, state_words = table_state(table, people_here=people_here)
    mine = user is not None and user.is_authenticated and any(s["user_id"] == user.pk for s in seats)
    if mine:
        action = "rejoin"
    elif table.status == Table.Status.WAITING and taken < 4:
        action = "sit"
    else:
        action = "watch"
    return {
        "table": table,
        "seats": seats,
        "taken": taken,
        "free": 4 - taken,
        "state": state,
        "state_words": state_words,
        "options": table_options(table),
        "rules": rulesets.described(rulesets.rules_of_table(table)),
        "watching": getattr(table, "watching", 0),
        "action": action,
    }
