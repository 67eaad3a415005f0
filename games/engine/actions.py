"""apply(game, action): the only way a Game changes.

Every handler validates the whole action first (raising Refusal with `game` untouched)
and only then mutates. Handlers return events: dicts with "type"; a private event
carries "only": seat (seen by that seat alone).
"""

import random
from collections.abc import Callable, Mapping
from typing import Any

from .cards import DEALT_CARDS, KITTY_SIZE, VALID, Play, full_deck, holds, points, remove_cards
from .declare import Declaration, check_declaration, flip_trump
from .errors import rule_refusal
from .follow import is_legal_follow, lead_refusal
from .game import Game, TrickRecord, deal_receiver
from .order import context
from .scoring import hand_outcome, hand_score, is_defender, penalty_delta
from .seats import next_seat, team_of
from .tricks import FailedThrow, check_throw, trick_winner

Action = Mapping[str, Any]  # a JSON object from a client, the clock, a bot or the log
Event = dict[str, Any]  # a JSON object for the log and the readers


def _hands(game: Game) -> list[list[str]]:
    """The hands, which exist in every phase but "ready" (start_hand sets them)."""
    assert game.hands is not None, "no hand has started"
    return game.hands


def _dealer(game: Game) -> int:
    """The dealer, known from fix_trump on (§3.5)."""
    assert game.dealer is not None, "the dealer is not known yet"
    return game.dealer


def _phase(game: Game, *phases: str) -> None:
    if game.phase == "finished" and "finished" not in phases:
        raise rule_refusal("match_over")
    if game.phase not in phases:
        raise rule_refusal("wrong_phase", phase=game.phase)


def _seat(action: Action) -> int:
    seat = action.get("seat")
    if type(seat) is not int or not 0 <= seat <= 3:
        raise rule_refusal("bad_action", problem="seat must be 0, 1, 2 or 3")
    return seat


def _cards(action: Action) -> list[str]:
    cards = action.get("cards")
    if not isinstance(cards, list) or not all(isinstance(c, str) and c in VALID for c in cards):
        raise rule_refusal("bad_action", problem="cards must be a list of card codes")
    return cards


# --- start_hand / deal --------------------------------------------------------
def start_hand(game: Game, action: Action) -> list[Event]:
    _phase(game, "ready", "scored")
    seed = action.get("seed")
    if not isinstance(seed, (str, int)) or isinstance(seed, bool):
        raise rule_refusal("bad_action", problem="seed must be a string")
    deck = full_deck()
    random.Random(seed).shuffle(deck)
    game.hand_no += 1
    if game.hand_no == 1:
        game.dealer, game.first = None, 0  # §3.5, §3.6: first hand
    else:
        assert game.result is not None  # "scored": the last hand's result
        game.dealer = game.result["next_dealer"]  # §8.2 rotation, fixed before the deal
        game.first = game.dealer
    game.deck = deck
    game.phase = "deal"
    game.trump = None
    game.turn = None
    game.dealt = 0
    game.hands = [[], [], [], []]
    game.areas = [[], [], [], []]
    game.standing = None
    game.declarations = []
    game.flipped = None
    game.kitty = deck[DEALT_CARDS : DEALT_CARDS + KITTY_SIZE]
    game.buried = None
    game.leader = None
    game.trick = []
    game.tricks = []
    game.defender_points = 0
    game.penalties = 0
    game.last_failed_throw = None
    return [
        {
            "type": "hand_started",
            "hand_no": game.hand_no,
            "dealer": game.dealer,
            "first": game.first,
            "levels": dict(game.levels),
            "level": game.level,
        }
    ]


def deal(game: Game, action: Action) -> list[Event]:
    _phase(game, "deal")
    upto = action.get("upto", game.dealt + 1)
    if type(upto) is not int or not game.dealt < upto <= DEALT_CARDS:
        raise rule_refusal("bad_action", problem=f"upto must be between {game.dealt + 1} and {DEALT_CARDS}")
    events: list[Event] = []
    first, deck, hands = game.first, game.deck, _hands(game)
    assert first is not None and deck is not None
    for i in range(game.dealt, upto):
        seat = deal_receiver(first=first, index=i)
        hands[seat].append(deck[i])
        events.append({"type": "card_dealt", "seat": seat, "card": deck[i], "n": i + 1, "only": seat})
    game.dealt = upto
    if upto == DEALT_CARDS:
        game.phase = "last_chance"  # §3.4: a short window, then fix_trump
        events.append({"type": "deal_complete"})
    return events


# --- declarations and trump ---------------------------------------------------
def declare(game: Game, action: Action) -> list[Event]:
    _phase(game, "deal", "last_chance")
    seat, cards = _seat(action), _cards(action)
    hands, areas, declarations = _hands(game), game.areas, game.declarations
    assert areas is not None and declarations is not None
    new = check_declaration(seat, cards, hands[seat], game.standing, game.level)
    events: list[Event] = []
    old = game.standing
    if old is not None and not new["reinforce"]:
        # §3.3: overridden cards go straight back to their owner's hand.
        owner = old["seat"]
        back = areas[owner]
        hands[owner].extend(back)
        areas[owner] = []
        events.append({"type": "declaration_overridden", "seat": owner, "cards": back})
    remove_cards(hands[seat], cards)
    areas[seat].extend(cards)
    game.standing = {"seat": new["seat"], "cards": new["cards"], "strength": new["strength"], "trump": new["trump"]}
    entry: Declaration = {
        "seat": seat,
        "cards": list(cards),
        "strength": new["strength"],
        "trump": new["trump"],
        "reinforce": new["reinforce"],
    }
    declarations.append(entry)
    events.insert(0, dict(entry, type="declared"))
    return events


def fix_trump(game: Game, action: Action) -> list[Event]:
    _phase(game, "last_chance")
    hands, areas, kitty = _hands(game), game.areas, game.kitty
    assert areas is not None and kitty is not None
    events: list[Event] = []
    if game.standing is not None:
        game.trump = game.standing["trump"]
        if game.dealer is None:
            game.dealer = game.standing["seat"]  # §3.5 first hand: the standing declarer
    else:
        game.flipped = kitty[3]  # §3.4: the 4th kitty card, 1-based
        game.trump = flip_trump(game.flipped)
        if game.dealer is None:
            game.dealer = 0
        events.append({"type": "kitty_flipped", "card": game.flipped})
    for seat in range(4):  # §3.4: declaration areas go back to their owners
        hands[seat].extend(areas[seat])
        areas[seat] = []
    hands[game.dealer].extend(kitty)  # §4.1: the dealer picks up the kitty
    game.phase = "bury"
    game.turn = game.dealer
    events.append({"type": "trump_fixed", "trump": game.trump, "dealer": game.dealer, "level": game.level})
    events.append({"type": "kitty_taken", "seat": game.dealer, "cards": list(kitty), "only": game.dealer})
    return events


def bury(game: Game, action: Action) -> list[Event]:
    _phase(game, "bury")
    seat, cards = _seat(action), _cards(action)
    if seat != game.dealer:
        raise rule_refusal("not_dealer")
    if len(cards) != KITTY_SIZE:
        raise rule_refusal("bury_needs_8")
    hand = _hands(game)[seat]
    if not holds(hand, cards):
        raise rule_refusal("cards_not_in_hand")
    remove_cards(hand, cards)
    game.buried = list(cards)
    game.phase = "play"
    game.turn = game.leader = game.dealer  # §5.2: the dealer leads the first trick
    game.trick = []
    return [
        {"type": "buried", "seat": seat, "cards": list(cards), "only": seat},
        {"type": "play_started", "leader": game.leader},
    ]


# --- play ---------------------------------------------------------------------
def check_play(game: Game, seat: int, cards: list[str]) -> FailedThrow | None:
    """Validate a play without changing anything. Returns the throw check result for a
    failed throw (else None); raises Refusal when the play is illegal."""
    if seat != game.turn:
        raise rule_refusal("not_your_turn")
    hands = _hands(game)
    hand = hands[seat]
    ctx = context(game.level, game.trump)
    if not game.trick:
        err = lead_refusal(hand, cards, ctx)
        if err is not None:
            raise err
        if len(cards) == 1:
            return None
        return check_throw(cards, seat, hands, ctx)
    _, err = is_legal_follow(game.trick[0][1], hand, cards, ctx)
    if err is not None:
        raise err
    return None


def play(game: Game, action: Action) -> list[Event]:
    _phase(game, "play")
    seat, cards = _seat(action), _cards(action)
    failed = check_play(game, seat, cards)
    trick, tricks = game.trick, game.tricks
    assert trick is not None and tricks is not None
    events: list[Event] = []
    if failed is not None:
        # §5.3: a failed throw leads only the forced component and costs a penalty.
        delta = penalty_delta(seat=seat, dealer=_dealer(game), penalty=failed["penalty"])
        game.penalties += delta
        game.last_failed_throw = {
            "seat": seat,
            "attempted": list(cards),
            "forced": failed["forced"],
            "beatable": failed["beatable"],
            "penalty": failed["penalty"],
            "defenders_delta": delta,
            "trick_no": len(tricks) + 1,
        }
        events.append(dict(game.last_failed_throw, type="throw_failed"))
        cards = failed["forced"]
    remove_cards(_hands(game)[seat], cards)
    trick.append([seat, list(cards)])
    events.append({"type": "played", "seat": seat, "cards": list(cards)})
    if len(trick) < 4:
        game.turn = next_seat(seat)
        return events
    return events + _finish_trick(game, trick, tricks)


def _finish_trick(game: Game, trick: list[Play], tricks: list[TrickRecord]) -> list[Event]:
    ctx = context(game.level, game.trump)
    winner = trick_winner(trick, ctx)
    pts = sum(points(c) for _, c in trick)
    if is_defender(winner, _dealer(game)):
        game.defender_points += pts  # §5.6: points count for the winner's team
    assert game.leader is not None
    tricks.append({"leader": game.leader, "plays": trick, "winner": winner, "points": pts})
    events: list[Event] = [{"type": "trick_won", "seat": winner, "points": pts, "trick_no": len(tricks)}]
    game.trick = []
    game.leader = game.turn = winner
    if not any(_hands(game)):
        events += _finish_hand(game, tricks[-1])
    return events


def _finish_hand(game: Game, last: TrickRecord) -> list[Event]:
    """§6 kitty bonus, §7 score, §8 levels, next dealer and match end."""
    ctx = context(game.level, game.trump)
    dealer, buried, kitty, declarations = _dealer(game), game.buried, game.kitty, game.declarations
    assert buried is not None and kitty is not None and declarations is not None
    score, mult, bonus = hand_score(
        last_plays=last["plays"],
        last_winner=last["winner"],
        buried=buried,
        dealer=dealer,
        trick_points=game.defender_points,
        penalties=game.penalties,
        ctx=ctx,
    )
    outcome = hand_outcome(dealer, game.levels, score)
    result = {
        "hand_no": game.hand_no,
        "dealer": dealer,
        "dealer_team": team_of(dealer),
        "level": game.level,
        "trump": game.trump,
        "flipped": game.flipped,
        "declarations": [dict(d) for d in declarations],
        "kitty": list(kitty),
        "buried": list(buried),
        "trick_points": game.defender_points,
        "kitty_points": points(buried),
        "kitty_multiplier": mult,
        "kitty_bonus": bonus,
        "penalties": game.penalties,
        "defenders_score": score,
        "levels_before": dict(game.levels),
        "levels_after": outcome["levels"],
        "level_change": outcome["level_change"],
        "next_dealer": outcome["next_dealer"],
        "winner": outcome["winner"],
    }
    game.result = result
    game.history.append(result)
    game.levels = dict(outcome["levels"])
    game.turn = None
    events: list[Event] = [{"type": "hand_scored", "result": result}]
    if outcome["winner"] is not None:
        game.winner = outcome["winner"]
        game.phase = "finished"
        events.append({"type": "match_won", "team": game.winner})
    else:
        game.phase = "scored"
    return events


HANDLERS: dict[str, Callable[[Game, Action], list[Event]]] = {
    "start_hand": start_hand,
    "deal": deal,
    "declare": declare,
    "fix_trump": fix_trump,
    "bury": bury,
    "play": play,
}
ACTION_TYPES = frozenset(HANDLERS)  # what an event log may hand to apply()


def apply(game: Game, action: Action) -> list[Event]:
    """Validate and apply one action; returns its events. On Refusal `game` is untouched."""
    if not isinstance(action, Mapping):
        raise rule_refusal("bad_action", problem="an action is a JSON object")
    handler = HANDLERS.get(str(action.get("type")))
    if handler is None:
        raise rule_refusal("unknown_action", type=str(action.get("type"))[:40])
    return handler(game, action)
