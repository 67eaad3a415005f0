"""Reads (STYLE: selectors): what a given user may see of tables and hands."""

from dataclasses import dataclass

from django.db import connection
from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from games import engine
from games.models import Hand, Table, TableEvent
from games.moderation.models import Ban, Kick
from games.runtime import clock
from games.sanctions import is_kicked


def visible_tables():
    """Lobby list: public, not closed; private tables are reachable only by link."""
    from games.runtime.presence import fresh_since

    return (
        Table.objects.filter(is_private=False)
        .exclude(status=Table.Status.CLOSED)
        .annotate(watching=Count("spectators", filter=Q(spectators__seen_at__gte=fresh_since())))
        .prefetch_related("seats__user")
        .order_by("status", "-created_at")
    )


def table_access(*, table: Table, user, invite_code: str | None = None, seats=None, kicked=None) -> bool:
    """May this user open the table page / socket? Private tables need the link or a seat
    (`seats`, `kicked`: what the caller knows already)."""
    if table.status == Table.Status.CLOSED:
        return False
    if kicked is None:
        kicked = is_kicked(user=user, table_id=table.pk)
    if kicked:  # removed by a moderator (games/moderation/tables.py)
        return False
    if not table.is_private:
        return True
    if user.is_authenticated:
        if table.owner_id == user.pk:
            return True
        if seat_for(seats, user) is not None if seats is not None else table.seats.filter(user=user.pk).exists():
            return True
    # The link opens a private table, except a guest's: it is theirs alone (accounts/guests.py).
    return bool(invite_code) and invite_code == table.invite_code and not guest_owned(table)


def table_url(table: Table) -> str:
    """The table page's address; a private table's carries its invite, so give it only to
    people `table_access` lets in."""
    url = reverse("table", args=[table.pk])
    return f"{url}?invite={table.invite_code}" if table.is_private else url


def guest_owned(table: Table) -> bool:
    return Profile.objects.filter(user_id=table.owner_id, is_guest=True).exists()


def seat_for(seats, user):
    """The Seat this user sits in, or None (spectators, anonymous readers)."""
    if user is None or not user.is_authenticated:
        return None
    return next((seat for seat in seats if seat.user_id == user.pk), None)


def seat_of(seats, user) -> int | None:
    seat = seat_for(seats, user)
    return None if seat is None else seat.position


def position_of(seats, user_id: int) -> int | None:
    """`seat_of` by the user's id: a socket asks on every push, and its scope's user is a lazy
    object whose every attribute is looked up through a proxy."""
    return next((seat.position for seat in seats if seat.user_id == user_id), None)


def live_game(table, now=None):
    """The engine state as of now: the stored snapshot plus the cards the clock has dealt since.

    The deal is derived from the stored deck and deal start time (docs/table-runtime.md),
    so nothing is written per dealt card.
    """
    if table.state is None:
        return None
    return clock.live(table, engine.Game.from_json(table.state), now or timezone.now())


def seat_view(table, seat: int | None, now=None) -> dict | None:
    """RULES §9: exactly what this seat (None: a spectator) may see now."""
    game = live_game(table, now)
    return None if game is None else engine.view(game, seat)


@dataclass(frozen=True)
class Entry:
    version: int | None  # the table's committed version; None: there is no such table
    banned: bool
    kicked: bool  # from this table
    language: str  # the user's saved UI language, or ""


def socket_entry(*, user, table_id: int, now=None) -> Entry:
    """What a socket entering a table needs to know, in one statement: the table's version
    (games/runtime/table_state.py `at`), and whether its user is banned, is kicked from this table, and
    their saved language.

    SQL of its own, because after a restart every socket enters at once, one after another
    in the process's database thread: compiling the ORM's query with its three subqueries
    costs ten times what running this one does. "Active" is `active_at` of
    games/moderation/models.py, written out; tests/runtime/test_table_entry.py holds the answers
    equal to the ORM's for every kind of sanction."""
    now = _EXPIRES.get_db_prep_value(timezone.now() if now is None else now, connection)  # as the ORM sends it
    values = {"table": table_id, "user": user.pk, "now": now}
    with connection.cursor() as cursor:
        cursor.execute(_ENTRY, values)
        version, banned, kicked, language = cursor.fetchone()
    return Entry(version=version, banned=bool(banned), kicked=bool(kicked), language=language or "")


_EXPIRES = Ban._meta.get_field("expires_at")
_ACTIVE = "lifted_at IS NULL AND (expires_at IS NULL OR expires_at > %(now)s)"
_ENTRY = f"""
SELECT
    (SELECT version FROM {Table._meta.db_table} WHERE id = %(table)s),
    EXISTS (SELECT 1 FROM {Ban._meta.db_table} WHERE user_id = %(user)s AND {_ACTIVE}),
    EXISTS (SELECT 1 FROM {Kick._meta.db_table} WHERE user_id = %(user)s AND table_id = %(table)s AND {_ACTIVE}),
    (SELECT language FROM {Profile._meta.db_table} WHERE user_id = %(user)s)
"""


def hand_log(hand: Hand) -> tuple[list[tuple[int, str, dict]], list[tuple[int, str, dict]]]:
    """The engine actions of a finished hand's match from its `start_match` up to the hand's end,
    each with its log seq and source ("player", "bot", "clock", …), split at the hand's
    `start_hand`: [(seq, source, action)] before the hand, and the hand's own. Replays
    (games/history/) and the hand analysis (games/analysis/) fold them."""
    if not hand.is_finished:
        raise ValueError("a running hand has no replay")
    log = TableEvent.objects.filter(table_id=hand.match.table_id, seq__lte=hand.last_seq)
    start = (
        log.filter(seq__lt=hand.first_seq, action__type="start_match")
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )
    if start is None:
        raise engine.ReplayError(f"no start_match before seq {hand.first_seq}")
    rows = log.filter(seq__gt=start).order_by("seq").values_list("seq", "source", "action")
    before: list[tuple[int, str, dict]] = []
    own: list[tuple[int, str, dict]] = []
    for seq, source, action in rows:
        if action.get("type") in engine.ACTION_TYPES:  # games/history/replay.py engine_actions
            (own if seq >= hand.first_seq else before).append((seq, source, action))
    return before, own
