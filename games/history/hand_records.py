"""Keeping each player's HandRecord (games/history/models.py) in step with the hands.

One rule, `add_hand`, folds one finished hand seen from one seat into a record; it runs as
each hand is scored (a subscriber of the table's "hand scored", games/runtime/outbox.py) and the rebuild calls it
over every stored hand, in the order they finished — so both give the same rows.
The numbers' definitions: games/web/profile_stats.py.
"""

from dataclasses import dataclass

from django.db import transaction

from games.engine import RANKS
from games.history.models import HandRecord
from games.models import DomainEvent, Hand, MatchPlayer
from games.runtime.outbox import subscribe

LATEST_LEVELS = 40  # the levels-per-hand chart: the latest hands
RECORD_FIELDS = [field.name for field in HandRecord._meta.fields if field.name != "user"]


@dataclass(frozen=True)
class SeatHand:
    """A finished hand as one seat saw it."""

    seat: int
    dealer: int
    level_change: dict | None  # {"team": 0/1, "levels": n} (RULES §7.2)
    kitty_bonus: int | None
    defenders_score: int
    levels_after: dict | None


def add_hand(record: HandRecord, hand: SeatHand) -> None:
    team = hand.seat % 2
    dealing = hand.dealer % 2 == team
    change = hand.level_change or {}
    gaining = change.get("team")
    record.as_dealer += hand.dealer == hand.seat
    if dealing:
        record.dealt += 1
        record.kept += gaining == team
    else:
        record.as_defender += 1
        record.took_over += gaining == team
        record.defended_points += hand.defenders_score
    if hand.kitty_bonus:  # RULES §6: only the defenders ever win it
        if dealing:
            record.kitty_conceded += 1
            record.kitty_conceded_points += hand.kitty_bonus
        else:
            record.kitty_won += 1
            record.kitty_won_points += hand.kitty_bonus
    if change.get("levels") is not None:
        moved = change["levels"] if gaining == team else -change["levels"]
        record.latest_levels = [*record.latest_levels, moved][-LATEST_LEVELS:]
    reached = (hand.levels_after or {}).get(str(team))
    if reached and (not record.best_level or RANKS.index(reached) > RANKS.index(record.best_level)):
        record.best_level = reached


def _seat_hand(hand: Hand, seat: int) -> SeatHand:
    # A finished hand always has its dealer and score (games/runtime/records.py).
    assert hand.dealer is not None and hand.defenders_score is not None
    return SeatHand(
        seat=seat,
        dealer=hand.dealer,
        level_change=hand.level_change,
        kitty_bonus=hand.kitty_bonus,
        defenders_score=hand.defenders_score,
        levels_after=hand.levels_after,
    )


@subscribe(DomainEvent.Kind.HAND_SCORED, "history.hand_records")
def on_hand_scored(event: DomainEvent) -> None:
    hand_scored(event.scored_hand())


def hand_scored(hand: Hand) -> None:
    """Add a just-scored hand to its players' records."""
    seated = dict(
        MatchPlayer.objects.filter(match_id=hand.match_id, user__isnull=False).values_list("user_id", "position")
    )
    if not seated:
        return
    records = {r.user_id: r for r in HandRecord.objects.select_for_update().filter(user_id__in=seated)}
    new = [HandRecord(user_id=user_id) for user_id in seated if user_id not in records]
    for record in [*records.values(), *new]:
        add_hand(record, _seat_hand(hand, seated[record.user_id]))
    HandRecord.objects.bulk_create(new)
    HandRecord.objects.bulk_update(records.values(), RECORD_FIELDS)


def computed_records(hand_model=Hand, player_model=MatchPlayer, record_model=HandRecord) -> dict[int, HandRecord]:
    """Every player's record recomputed from the finished hands, in the order they finished
    (the models may be a migration's historical ones)."""
    records: dict[int, HandRecord] = {}
    seats = player_model.objects.filter(user__isnull=False).values_list("match_id", "user_id", "position")
    players: dict[int, list[tuple[int, int]]] = {}
    for match_id, user_id, position in seats.iterator(chunk_size=10_000):
        players.setdefault(match_id, []).append((user_id, position))
    hands = (
        hand_model.objects.filter(finished_at__isnull=False)
        .order_by("finished_at", "pk")
        .only("match_id", "dealer", "level_change", "kitty_bonus", "defenders_score", "levels_after")
    )
    for hand in hands.iterator(chunk_size=10_000):
        for user_id, position in players.get(hand.match_id, ()):
            record = records.get(user_id) or records.setdefault(user_id, record_model(user_id=user_id))
            add_hand(record, _seat_hand(hand, position))
    return records


def as_row(record: HandRecord) -> tuple:
    return tuple(getattr(record, name) for name in RECORD_FIELDS)


@transaction.atomic
def hand_records_rebuild() -> tuple[int, int]:
    """Rewrite every record from the hands; (records written, stored rows that differed)."""
    fresh = computed_records()
    stored = {r.user_id: as_row(r) for r in HandRecord.objects.all()}
    differed = sum(stored.get(user_id) != as_row(record) for user_id, record in fresh.items())
    differed += len(stored.keys() - fresh.keys())
    HandRecord.objects.all().delete()
    HandRecord.objects.bulk_create(fresh.values(), batch_size=5000)
    return len(fresh), differed
