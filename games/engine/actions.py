"""apply(game, action): the only way a Game changes.

Every handler validates the whole action first (raising Refusal with `game` untouched)
and only then mutates. Handlers return events: dicts with "type"; a private event
carries "only": seat (seen by that seat alone).
"""
import random

from .cards import DEALT_CARDS, KITTY_SIZE, VALID, full_deck, holds, remove_cards
from .declare import check_declaration, flip_trump
from .errors import rule_refusal
from .follow import is_legal_follow, lead_refusal
from .order import context
from .game import deal_receiver
from .scoring import hand_outcome, hand_score, is_defender, penalty_delta
from .cards import points
from .tricks import check_throw, trick_winner


def _phase(game, *phases):
    if game.phase == "finished" and "finished" not in phases:
        raise rule_refusal("match_over")
    if game.phase not in phases:
        raise rule_refusal("wrong_phase", phase=game.phase)


def _seat(action):
    seat = action.get("seat")
    if type(seat) is not int or not 0 <= seat <= 3:
        raise rule_refusal("bad_action", problem="seat must be 0, 1, 2 or 3")
    return seat


def _cards(action):
    cards = action.get("cards")
    if not isinstance(cards, list) or not all(isinstance(c, str) and c in VALID for c in cards):
        raise rule_refusal("bad_action", problem="cards must be a list of card codes")
    return cards


# --- start_hand / deal --------------------------------------------------------
def start_hand(game, action):
    _phase(game, "ready", "scored")
    seed = action.get("seed")
    if not isinstance(seed, (str, int)) or isinstance(seed, bool):
        raise rule_refusal("bad_action", problem="seed must be a string")
    deck = full_deck()
    random.Random(seed).shuffle(deck)
    game.hand_no += 1
    if game.hand_no == 1:
        game.dealer, game.first = None, 0          # §3.5, §3.6: first hand
    else:
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
    game.kitty = deck[DEALT_CARDS:DEALT_CARDS + KITTY_SIZE]
    game.buried = None
    game.leader = None
    game.trick = []
    game.tricks = []
    game.defender_points = 0
    game.penalties = 0
    game.last_failed_throw = None
    return [{"type": "hand_started", "hand_no": game.hand_no, "dealer": game.dealer,
             "first": game.first, "levels": dict(game.levels), "level": game.level}]


def deal(game, action):
    _phase(game, "deal")
    upto = action.get("upto", game.dealt + 1)
    if type(upto) is not int or not game.dealt < upto <= DEALT_CARDS:
        raise rule_refusal("bad_action",
                           problem=f"upto must be between {game.dealt + 1} and {DEALT_CARDS}")
    events = []
    first, deck, hands = game.first, game.deck, game.hands
    for i in range(game.dealt, upto):
        seat = deal_receiver(first=first, index=i)
        hands[seat].append(deck[i])
        events.append({"type": "card_dealt", "seat": seat, "card": deck[i], "n": i + 1,
                       "only": seat})
    game.dealt = upto
    if upto == DEALT_CARDS:
        game.phase = "last_chance"  # §3.4: a short window, then fix_trump
        events.append({"type": "deal_complete"})
    return events


# --- declarations and trump ---------------------------------------------------
def declare(game, action):
    _phase(game, "deal", "last_chance")
    seat, cards = _seat(action), _cards(action)
    new = check_declaration(seat, cards, game.hands[seat], game.standing, game.level)
    events = []
    old = game.standing
    if old is not None and not new["reinforce"]:
        # §3.3: overridden cards go straight back to their owner's hand.
        owner = old["seat"]
        back = game.areas[owner]
        game.hands[owner].extend(back)
        game.areas[owner] = []
        events.append({"type": "declaration_overridden", "seat": owner, "cards": back})
    remove_cards(game.hands[seat], cards)
    game.areas[seat].extend(cards)
    game.standing = {k: new[k] for k in ("seat", "cards", "strength", "trump")}
    entry = {"seat": seat, "cards": list(cards), "strength": new["strength"],
             "trump": new["trump"], "reinforce": new["reinforce"]}
    game.declarations.append(entry)
    events.insert(0, dict(entry, type="declared"))
    return events


def fix_trump(game, action):
    _phase(game, "last_chance")
    events = []
    if game.standing is not None:
        game.trump = game.standing["trump"]
        if game.dealer is None:
            game.dealer = game.standing["seat"]  # §3.5 first hand: the standing declarer
    else:
        game.flipped = game.kitty[3]  # §3.4: the 4th kitty card, 1-based
        game.trump = flip_trump(game.flipped)
        if game.dealer is None:
            game.dealer = 0
        events.append({"type": "kitty_flipped", "card": game.flipped})
    for seat in range(4):  # §3.4: declaration areas go back to their owners
        game.hands[seat].extend(game.areas[seat])
        game.areas[seat] = []
    game.hands[game.dealer].extend(game.kitty)  # §4.1: the dealer picks up the kitty
    game.phase = "bury"
    game.turn = game.dealer
    events.append({"type": "trump_fixed", "trump": game.trump, "dealer": game.dealer,
                   "level": game.level})
    events.append({"type": "kitty_taken", "seat": game.dealer, "cards": list(game.kitty),
                   "only": game.dealer})
    return events


def bury(game, action):
    _phase(game, "bury")
    seat, cards = _seat(action), _cards(action)
    if seat != game.dealer:
        raise rule_refusal("not_dealer")
    if len(cards) != KITTY_SIZE:
        raise rule_refusal("bury_needs_8")
    if not holds(game.hands[seat], cards):
        raise rule_refusal("cards_not_in_hand")
    remove_cards(game.hands[seat], cards)
    game.buried = list(cards)
    game.phase = "play"
    game.turn = game.leader = game.dealer  # §5.2: the dealer leads the first trick
    game.trick = []
    return [{"type": "buried", "seat": seat, "cards": list(cards), "only": seat},
            {"type": "play_started", "leader": game.leader}]


# --- play ---------------------------------------------------------------------
def check_play(game, seat, cards):
    """Validate a play without changing anything. Returns the throw check result for a
    failed throw (else None); raises Refusal when the play is illegal."""
    if seat != game.turn:
        raise rule_refusal("not_your_turn")
    hand = game.hands[seat]
    ctx = context(game.level, game.trump)
    if not game.trick:
        err = lead_refusal(hand, cards, ctx)
        if err is not None:
            raise err
        if len(cards) == 1:
            return None
        return check_throw(cards, seat, game.hands, ctx)
    ok, err = is_legal_follow(game.trick[0][1], hand, cards, ctx)
    if not ok:
        raise err
    return None


def play(game, action):
    _phase(game, "play")
    seat, cards = _seat(action), _cards(action)
    failed = check_play(game, seat, cards)
    events = []
    if failed is not None:
        # §5.3: a failed throw leads only the forced component and costs a penalty.
        delta = penalty_delta(seat=seat, dealer=game.dealer, penalty=failed["penalty"])
        game.penalties += delta
        game.last_failed_throw = {"seat": seat, "attempted": list(cards),
                                  "forced": failed["forced"], "beatable": failed["beatable"],
                                  "penalty": failed["penalty"], "defenders_delta": delta,
                                  "trick_no": len(game.tricks) + 1}
        events.append(dict(game.last_failed_throw, type="throw_failed"))
        cards = failed["forced"]
    remove_cards(game.hands[seat], cards)
    game.trick.append([seat, list(cards)])
    events.append({"type": "played", "seat": seat, "cards": list(cards)})
    if len(game.trick) < 4:
        game.turn = (seat + 1) % 4
        return events
    return events + _finish_trick(game)


def _finish_trick(game):
    ctx = context(game.level, game.trump)
    winner = trick_winner(game.trick, ctx)
    pts = sum(points(c) for _, c in game.trick)
    if is_defender(winner, game.dealer):
        game.defender_points += pts  # §5.6: points count for the winner's team
    game.tricks.append({"leader": game.leader, "plays": game.trick, "winner": winner,
                        "points": pts})
    events = [{"type": "trick_won", "seat": winner, "points": pts,
               "trick_no": len(game.tricks)}]
    game.trick = []
    game.leader = game.turn = winner
    if not any(game.hands):
        events += _finish_hand(game)
    return events


def _finish_hand(game):
    """§6 kitty bonus, §7 score, §8 levels, next dealer and match end."""
    ctx = context(game.level, game.trump)
    last = game.tricks[-1]
    score, mult, bonus = hand_score(last_plays=last["plays"], last_winner=last["winner"],
                                    buried=game.buried, dealer=game.dealer,
                                    trick_points=game.defender_points,
                                    penalties=game.penalties, ctx=ctx)
    outcome = hand_outcome(game.dealer, game.levels, score)
    result = {
        "hand_no": game.hand_no, "dealer": game.dealer, "dealer_team": game.dealer % 2,
        "level": game.level, "trump": game.trump, "flipped": game.flipped,
        "declarations": [dict(d) for d in game.declarations],
        "kitty": list(game.kitty), "buried": list(game.buried),
        "trick_points": game.defender_points, "kitty_points": points(game.buried),
        "kitty_multiplier": mult, "kitty_bonus": bonus, "penalties": game.penalties,
        "defenders_score": score, "levels_before": dict(game.levels),
        "levels_after": outcome["levels"], "level_change": outcome["level_change"],
        "next_dealer": outcome["next_dealer"], "winner": outcome["winner"],
    }
    game.result = result
    game.history.append(result)
    game.levels = dict(outcome["levels"])
    game.turn = None
    events = [{"type": "hand_scored", "result": result}]
    if outcome["winner"] is not None:
        game.winner = outcome["winner"]
        game.phase = "finished"
        events.append({"type": "match_won", "team": game.winner})
    else:
        game.phase = "scored"
    return events


HANDLERS = {
    "start_hand": start_hand,
    "deal": deal,
    "declare": declare,
    "fix_trump": fix_trump,
    "bury": bury,
    "play": play,
}
ACTION_TYPES = frozenset(HANDLERS)  # what an event log may hand to apply()


def apply(game, action):
    """Validate and apply one action; returns its events. On Refusal `game` is untouched."""
    if not isinstance(action, dict):
        raise rule_refusal("bad_action", problem="an action is a JSON object")
    handler = HANDLERS.get(action.get("type"))
    if handler is None:
        raise rule_refusal("unknown_action", type=str(action.get("type"))[:40])
    return handler(game, action)
