"""The one write path of duplicate events (docs/events.md): create an event, register (a
partner confirms or declines a pair), check in, start a round, adjust a result. Each is
atomic; bad input is refused with a `Refusal` and changes nothing.

A round's tables are real tables, created by `table_create` and then driven only through
the table's write path (games/runtime/writer.py): the server places each entrant at the seat
the movement gives, seats bots where it gives nobody, and starts the match, whose hands
are the round's boards (games/runtime/event_tables.py). The tables belong to the site's
events account, which no person can log in as: nobody but a table's own players may open
it while it plays a board another table may still be playing (RULES §9).
"""

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from games import bot_levels, engine, rulesets
from games.boards.board import make_boards
from games.boards.scoring import level_change_of
from games.duplicate import movement
from games.duplicate.changes import event_changed_on_commit
from games.duplicate.models import NAME_LENGTH, BoardResult, Entry, Event, EventBoard, EventRound, EventTable
from games.engine import Refusal
from games.models import DomainEvent, Table
from games.moderation.models import ModerationLog
from games.runtime import outbox
from games.runtime.commands import Issuer
from games.runtime.tables import PUBLIC_TURN_LIMIT_S, table_create
from games.runtime.writer import table_act
from games.staff_log import moderation_log_write, moderator_check, reason_check

# The owner of every event table: not a name anyone can register (usernames are letters,
# digits and @.+-_), no password, inactive.
EVENTS_ACCOUNT = "~events"
MAX_ROUNDS = 20
MAX_BOARDS_PER_ROUND = 8
ROUND_MINUTES = (5, 240)


def events_account():
    account, created = get_user_model().objects.get_or_create(username=EVENTS_ACCOUNT, defaults={"is_active": False})
    if created:
        account.set_unusable_password()
        account.save(update_fields=["password"])
    return account


def _refuse(code: str, template: str, **params) -> Refusal:
    return Refusal(code, template, **params)


def _rules_of(preset: str) -> dict:
    if preset not in engine.PRESETS:
        raise _refuse("bad_preset", gettext_noop("Unknown house rules."))
    options = dict(engine.PRESETS[preset])
    if engine.preset_rules(preset).must_play == "none":
        # A board whose climb passes A would win the match and end the table (RULES §8).
        raise _refuse("preset_not_for_events", gettext_noop("These house rules cannot be played in an event."))
    return options


@transaction.atomic
def event_create(
    *,
    created_by,
    name: str,
    kind: str,
    rounds: int,
    boards_per_round: int,
    round_minutes: int,
    starts_at: datetime,
    preset: str = "standard",
    is_private: bool = False,
    rated: bool = False,
    bot_level: str | None = None,
    deal_pace_ms: int = 150,
    last_chance_ms: int = 2000,
) -> Event:
    """A new event open for registration, its boards drawn from its own secret seed. Staff
    create public events; any signed-in player a private one."""
    if not (created_by.is_staff or is_private):
        raise _refuse("staff_only", gettext_noop("Only staff can create public events."))
    name = " ".join(name.split()) if isinstance(name, str) else ""
    if not name or len(name) > NAME_LENGTH:
        raise _refuse("bad_name", gettext_noop("Give the event a name of at most 60 characters."))
    if kind not in Event.Kind.values:
        raise _refuse("bad_kind", gettext_noop("An event is for pairs or individuals."))
    if not (isinstance(rounds, int) and 1 <= rounds <= MAX_ROUNDS):
        raise _refuse("bad_rounds", gettext_noop("An event has 1 to {most} rounds."), most=MAX_ROUNDS)
    if not (isinstance(boards_per_round, int) and 1 <= boards_per_round <= MAX_BOARDS_PER_ROUND):
        raise _refuse("bad_boards", gettext_noop("A round has 1 to {most} boards."), most=MAX_BOARDS_PER_ROUND)
    low, high = ROUND_MINUTES
    if not (isinstance(round_minutes, int) and low <= round_minutes <= high):
        raise _refuse("bad_minutes", gettext_noop("A round lasts {low} to {high} minutes."), low=low, high=high)
    rules = _rules_of(preset)
    if rated and preset not in engine.RATEABLE:
        # As a rated table (docs/ratings.md): ratings compare only games of the same rules.
        raise _refuse(
            "rules_unrated",
            gettext_noop(
                "Only these rules can be rated: {rateable}. “{preset}” makes a casual event: untick “Rated” or choose one of them."
            ),
            rateable=rulesets.rateable_names(),
            preset=rulesets.PRESET_NAMES[preset],
        )
    level = bot_level or bot_levels.default()
    if level not in bot_levels.offered():
        raise _refuse("bad_bot", gettext_noop("Unknown bot strength."))
    event = Event.objects.create(
        name=name,
        kind=kind,
        created_by=created_by,
        is_private=is_private,
        rounds=rounds,
        boards_per_round=boards_per_round,
        round_minutes=round_minutes,
        starts_at=starts_at,
        rated=rated,
        rules=rules,
        bot_level=level,
        deal_pace_ms=deal_pace_ms,
        last_chance_ms=last_chance_ms,
    )
    boards = make_boards(event.seed, rounds * boards_per_round, event.game_rules())
    EventBoard.objects.bulk_create(
        EventBoard(event=event, number=b.number, seed=b.seed, dealer=b.dealer, levels=dict(b.levels)) for b in boards
    )
    return event


def _locked(event_id: int) -> Event:
    """The event's row, locked: registrations and rounds of one event happen one at a time."""
    return Event.objects.select_for_update().get(pk=event_id)


def _open_for_registration(event: Event) -> None:
    if event.status != Event.Status.REGISTRATION:
        raise _refuse("registration_closed", gettext_noop("Registration for this event is closed."))


@transaction.atomic
def event_register(*, event_id: int, user, partner=None) -> Entry:
    """Enter `user` (in a pairs event with `partner`, who is invited: the pair plays once
    the partner confirms it, `event_partner_confirm`)."""
    event = _locked(event_id)
    _open_for_registration(event)
    if event.kind == Event.Kind.PAIRS and (partner is None or partner.pk == user.pk):
        raise _refuse("partner_required", gettext_noop("A pair registers together: name your partner."))
    if event.kind == Event.Kind.INDIVIDUAL and partner is not None:
        raise _refuse("no_partner", gettext_noop("In an individual event partners rotate: register alone."))
    people = [user.pk] + ([partner.pk] if partner is not None else [])
    for person in people:
        if event.entries.filter(player_id=person).exists() or event.entries.filter(partner_id=person).exists():
            raise _refuse("already_entered", gettext_noop("{name} is already entered."), name=_name(person))
    entry = Entry.objects.create(event=event, player=user, partner=partner)
    event_changed_on_commit(event.pk)
    return entry


def _invitation_to(event: Event, user) -> Entry:
    """The pair entry whose partner `user` was named and has not confirmed yet."""
    entry = event.entries.filter(partner=user, partner_confirmed_at__isnull=True).first()
    if entry is None:
        raise _refuse("no_invitation", gettext_noop("Nobody has asked you to play as a pair in this event."))
    return entry


@transaction.atomic
def event_partner_confirm(*, event_id: int, user, now: datetime | None = None) -> Entry:
    """The named partner confirms the pair: it may now check in and be seated."""
    event = _locked(event_id)
    _open_for_registration(event)
    entry = _invitation_to(event, user)
    entry.partner_confirmed_at = now or timezone.now()
    entry.save(update_fields=["partner_confirmed_at"])
    event_changed_on_commit(event.pk)
    return entry


@transaction.atomic
def event_partner_decline(*, event_id: int, user) -> None:
    """The named partner declines the pair: the entry leaves the event."""
    event = _locked(event_id)
    _open_for_registration(event)
    _invitation_to(event, user).delete()
    event_changed_on_commit(event.pk)


@transaction.atomic
def event_withdraw(*, event_id: int, user) -> None:
    """The user's entry leaves the event (either player of a pair withdraws it), while
    registration is open: once a round has started, the movement rests on the entries."""
    event = _locked(event_id)
    _open_for_registration(event)
    entry = event.entries.filter(player=user).first() or event.entries.filter(partner=user).first()
    if entry is None:
        raise _refuse("not_entered", gettext_noop("You are not entered in this event."))
    entry.delete()
    event_changed_on_commit(event.pk)


def _name(user_id: int) -> str:
    return get_user_model().objects.filter(pk=user_id).values_list("username", flat=True).first() or "?"


@transaction.atomic
def event_check_in(*, event_id: int, user, now: datetime | None = None) -> Entry:
    """The user's entry is present (either player of a pair checks it in)."""
    event = _locked(event_id)
    _open_for_registration(event)
    entry = event.entries.filter(player=user).first() or event.entries.filter(partner=user).first()
    if entry is None:
        raise _refuse("not_entered", gettext_noop("You are not entered in this event."))
    if not entry.confirmed:
        raise _refuse("pair_unconfirmed", gettext_noop("The pair checks in once the partner has confirmed it."))
    if entry.checked_in_at is None:
        entry.checked_in_at = now or timezone.now()
        entry.save(update_fields=["checked_in_at"])
        event_changed_on_commit(event.pk)
    return entry


def event_movement(event: Event) -> list[movement.Sitting]:
    """The whole event's sittings, for the entries checked in (by entry id): a pair checks
    in only once confirmed, so an invitation still open is seated nowhere."""
    field = list(event.entries.filter(checked_in_at__isnull=False).order_by("pk").values_list("pk", flat=True))
    arrange = movement.pairs_movement if event.kind == Event.Kind.PAIRS else movement.individual_movement
    try:
        return arrange(field, rounds=event.rounds, boards_per_round=event.boards_per_round)
    except ValueError:
        least = movement.MIN_PAIRS if event.kind == Event.Kind.PAIRS else movement.MIN_PLAYERS
        raise _refuse(
            "too_few_entries", gettext_noop("An event needs at least {least} entries checked in."), least=least
        ) from None


@transaction.atomic
def event_start_round(*, event_id: int, now: datetime | None = None) -> EventRound:
    """Start the next round: a table per sitting, entrants placed, bots where nobody is,
    and each table's match under way with the round's first board. Round 1 closes
    registration; a later round starts once the one before has finished."""
    now = now or timezone.now()
    event = _locked(event_id)
    if event.status == Event.Status.FINISHED or event.current_round >= event.rounds:
        raise _refuse("event_over", gettext_noop("This event has played all its rounds."))
    if event.current_round:
        last = event.event_rounds.get(number=event.current_round)
        if last.finished_at is None:
            raise _refuse("round_running", gettext_noop("The round before has not finished yet."))
    number = event.current_round + 1
    sittings = [s for s in event_movement(event) if s.round == number]
    entries = {e.pk: e for e in event.entries.all()}
    event_round = EventRound.objects.create(
        event=event, number=number, ends_at=now + timedelta(minutes=event.round_minutes)
    )
    host = events_account()
    for sitting in sittings:
        _start_table(event, event_round, sitting, entries, host)
    event.status = Event.Status.RUNNING
    event.current_round = number
    event.save(update_fields=["status", "current_round"])
    event_changed_on_commit(event.pk)
    return event_round


def _people_at(sitting: movement.Sitting, entries: dict[Any, Entry]) -> list[int | None]:
    """The user at each seat (`Entry.person_at`), None for a bot."""
    return [entries[e].person_at(seat) if e is not None else None for seat, e in enumerate(sitting.seats)]


def _start_table(event: Event, event_round: EventRound, sitting: movement.Sitting, entries, host) -> Table:
    name = f"{event.name} · {event_round.number}/{sitting.table}"[: Table._meta.get_field("name").max_length]
    table = table_create(
        owner=host,
        name=name,
        is_private=True,
        turn_limit_s=PUBLIC_TURN_LIMIT_S,  # an absent player's seat is played by a bot
        deal_pace_ms=event.deal_pace_ms,
        last_chance_ms=event.last_chance_ms,
        rules=dict(event.rules),
    )
    EventTable.objects.create(
        round=event_round, number=sitting.table, table=table, seats=list(sitting.seats), boards=list(sitting.boards)
    )
    steps: list[dict] = []
    for seat, person in enumerate(_people_at(sitting, entries)):
        if person is None:
            steps.append({"type": "add_bot", "seat": seat, "level": event.bot_level})
        else:
            steps.append({"type": "place", "seat": seat, "user": person})
    version = table.version
    for action in steps + [{"type": "start_match"}]:
        version = table_act(table_id=table.pk, action=action, expected_version=version, issuer=Issuer.SYSTEM).version
    return table


def event_round_time_up(*, event_id: int, now: datetime | None = None) -> list[int]:
    """Once the current round's minutes are over, bots play every person's seat of its
    unfinished tables to the end of their boards (each table through its write path); the
    ids of the tables handed over."""
    now = now or timezone.now()
    event = Event.objects.get(pk=event_id)
    event_round = event.event_rounds.filter(number=event.current_round, finished_at__isnull=True).first()
    if event_round is None or event_round.ends_at > now:
        return []
    playing = Table.objects.filter(event_table__round=event_round, status=Table.Status.PLAYING)
    handed = []
    for table_id in playing.values_list("pk", flat=True):
        try:
            table_act(table_id=table_id, action={"type": "bots_take_over"}, expected_version=None, issuer=Issuer.SYSTEM)
        except Refusal:  # it finished meanwhile
            continue
        handed.append(table_id)
    return handed


@transaction.atomic
def result_adjust(*, moderator, result_id: int, defenders_score: int, reason: str) -> BoardResult:
    """A moderator scores a table's board result as if the defenders had `defenders_score`;
    the audit log keeps who, why, and the score before and after. A rated event that has
    finished is rated again from then on."""
    moderator_check(moderator)
    reason = reason_check(reason)
    if type(defenders_score) is not int or not -1000 <= defenders_score <= 1000:
        raise _refuse("bad_score", gettext_noop("A defenders' score is a whole number of points."))
    result = (
        BoardResult.objects.select_for_update().select_related("board__event", "event_table__table").get(pk=result_id)
    )
    before = result.scored_score
    board = result.board.board(result.board.event.game_rules())
    result.adjusted_score = defenders_score
    result.adjusted_level_change = level_change_of(board, defenders_score)
    result.save(update_fields=["adjusted_score", "adjusted_level_change"])
    # The ratings replay a rated event already rated with the old result (docs/ratings.md).
    facts = {"event": result.board.event_id}
    outbox.publish(kind=DomainEvent.Kind.RESULT_ADJUSTED, table=None, match=None, facts=facts, now=timezone.now())
    event_changed_on_commit(result.board.event_id)
    moderation_log_write(
        moderator=moderator,
        action=ModerationLog.Action.ADJUST_RESULT,
        reason=reason,
        table=result.event_table.table,
        details={
            "event_id": result.board.event_id,
            "board": result.board.number,
            "result_id": result.pk,
            "from": before,
            "to": defenders_score,
        },
    )
    return result
