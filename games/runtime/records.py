"""Keeps the queryable record (Match, Hand, Bury) in step with the event log, and publishes
what other packages react to: a hand scored, a match ended (games/runtime/outbox.py).

Called only from the write path (games/runtime/writer.py), inside its transaction: the record
and its domain events commit with the step, or not at all.
"""

from datetime import datetime
from typing import Any

from django.db.models import F

from games import engine
from games.models import Bury, DomainEvent, Hand, Match, MatchPlayer, Seat
from games.runtime import outbox


def start_match(table, seats, rules) -> Match:
    """The record of a new match, with the engine Rules it is played under."""
    number = (table.matches.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    match = Match.objects.create(
        table=table, number=number, rules=rules.to_json(), rated=match_is_rated(table=table, seats=seats)
    )
    MatchPlayer.objects.bulk_create(
        MatchPlayer(match=match, user_id=seat.user_id, position=seat.position, bot=seat.bot) for seat in seats
    )
    table._current_match = match
    table._current_hand = None  # the table object may carry the last match's hand
    return match


def match_is_rated(*, table, seats, rules: engine.Rules | None = None) -> bool:
    """Whether the match changes ratings (docs/ratings.md): a rated table, four people (a bot
    seat makes the match casual), and rules that are a rateable preset's (engine.RATEABLE).
    Decided once, when the match starts, and stored on it (`Match.rated`): nothing that
    happens later makes it casual. `rules`: the match's (default: those the table starts a
    match with, `Table.game_rules`). A custom set or the casual preset makes a rated table's
    match casual: the form refuses that pairing, and this also holds for tables stored
    before it did."""
    people = all(seat.user_id is not None and not seat.bot for seat in seats)
    return bool(table.rated) and people and engine.is_rateable(table.game_rules() if rules is None else rules)


def current_match(table) -> Match | None:
    if not hasattr(table, "_current_match"):
        table._current_match = table.matches.order_by("-number").first()
    return table._current_match


def current_hand(table) -> Hand | None:
    if not hasattr(table, "_current_hand"):
        match = current_match(table)
        table._current_hand = match.hands.order_by("-number").first() if match else None
    return table._current_hand


def _open_match(table) -> Match:
    """The match an engine event belongs to: the engine emits match and hand events only
    during a match, so a table without one is a broken record, not a state to skip."""
    match = current_match(table)
    if match is None:
        raise RuntimeError(f"table {table.pk}: a match event but no match on record")
    return match


def _open_hand(table) -> Hand:
    """The hand a hand event belongs to (as `_open_match`)."""
    hand = current_hand(table)
    if hand is None:
        raise RuntimeError(f"table {table.pk}: a hand event but no hand on record")
    return hand


def hand_facts(game, events) -> dict[str, Any]:
    """What the record needs from the engine state right after these events."""
    facts: dict[str, Any] = {}
    if any(e["type"] == "hand_started" for e in events):
        facts["deck"] = list(game.deck)
        facts["level"] = game.level
        facts["dealer"] = game.dealer
        facts["levels"] = dict(game.levels)
        facts["hand_no"] = game.hand_no
        facts["rules"] = game.rules.to_json()
    if any(e["type"] == "redealt" for e in events):
        facts["deck"] = list(game.deck)  # nobody declared: a new deal (house rule)
    if any(e["type"] == "match_won" for e in events):
        facts["levels_after"] = dict(game.levels)
    if any(e["type"] == "buried" for e in events):
        facts["kitty"] = list(game.kitty)
    return facts


def record_events(table, seq, applied, now) -> None:
    """The record of one applied step (`seq`: the version it produces), before its log row."""
    facts = applied.facts
    for event in applied.events:
        kind = event["type"]
        if kind == "hand_started":
            table._current_hand = Hand.objects.create(
                match=_open_match(table),
                number=facts["hand_no"],
                seed=applied.action.get("seed", ""),
                deck=facts["deck"],
                level=facts["level"],
                dealer=facts["dealer"],
                levels_before=facts["levels"],
                rules=facts["rules"],
                first_seq=seq,
            )
        elif kind == "trump_fixed":
            hand = _open_hand(table)
            hand.trump = event["trump"]
            hand.dealer = event["dealer"]
            hand.save(update_fields=["trump", "dealer"])
        elif kind == "redealt":
            hand = _open_hand(table)
            hand.deck = facts["deck"]
            hand.save(update_fields=["deck"])
        elif kind == "kitty_flipped":
            hand = _open_hand(table)
            hand.flipped = event["card"]
            hand.save(update_fields=["flipped"])
        elif kind == "buried":
            Bury.objects.create(hand=_open_hand(table), seat=event["seat"], kitty=facts["kitty"], cards=event["cards"])
        elif kind == "throw_failed":  # RULES §5.3: for the player's statistics
            MatchPlayer.objects.filter(match=_open_match(table), position=event["seat"]).update(
                failed_throws=F("failed_throws") + 1
            )
        elif kind == "hand_scored":
            hand, result = _open_hand(table), engine.HandResult.from_json(event["result"])
            _record_score(hand, result, seq, now)
            # Who a bot was playing for (an absent player) when the hand ended: an event's
            # board result keeps it.
            autoplay = list(Seat.objects.filter(table=table, autoplay=True).values_list("position", flat=True))
            outbox.publish(
                kind=DomainEvent.Kind.HAND_SCORED,
                table=table,
                match=_open_match(table),
                hand=hand,
                facts={"autoplay": autoplay},
                now=now,
            )
        elif kind == "match_won":
            match = _open_match(table)
            match.winner_team = event["team"]
            match.finished_at = now
            match.final_levels = facts.get("levels_after")
            match.save(update_fields=["winner_team", "finished_at", "final_levels"])
            outbox.publish(kind=DomainEvent.Kind.MATCH_ENDED, table=table, match=match, now=now)


def _record_score(hand: Hand, result: engine.HandResult, seq: int, now: datetime) -> None:
    """The hand's row takes what only its end knows (RULES §6–§8); the rest it took as the
    hand went (its deal, trump, flip and bury)."""
    hand.declarations = [dict(declaration) for declaration in result.declarations]
    hand.trick_points = result.trick_points
    hand.kitty_points = result.kitty_points
    hand.kitty_multiplier = result.kitty_multiplier
    hand.kitty_bonus = result.kitty_bonus
    hand.penalties = result.penalties
    hand.defenders_score = result.defenders_score
    hand.levels_after = dict(result.levels_after)
    hand.level_change = dict(result.level_change)
    hand.next_dealer = result.next_dealer
    hand.last_seq = seq
    hand.finished_at = now
    hand.save()


def boards_played(table, game, now) -> None:
    """An event's table played all its boards (games/duplicate/): its match is over, no team won."""
    match = _open_match(table)
    match.finished_at = now
    match.final_levels = dict(game.levels)
    match.save(update_fields=["finished_at", "final_levels"])
    outbox.publish(kind=DomainEvent.Kind.BOARDS_PLAYED, table=table, match=match, now=now)


def abort_match(table, reason: str, now) -> None:
    match = current_match(table)
    if match and match.finished_at is None:
        match.aborted = True
        match.abort_reason = reason
        match.finished_at = now
        match.save(update_fields=["aborted", "abort_reason", "finished_at"])
        # Rated only when a team left it (seat_left): the ratings decide.
        outbox.publish(kind=DomainEvent.Kind.MATCH_ENDED, table=table, match=match, now=now)


def seat_left(table, position: int) -> None:
    """A player was removed from their seat during the match (a moderator's kick or ban):
    for the ratings the match is a loss for their team, whatever happens next (docs/ratings.md)."""
    match = current_match(table)
    if match and match.finished_at is None and match.rated and match.left_team is None:
        match.left_team = engine.team_of(position)
        match.save(update_fields=["left_team"])
