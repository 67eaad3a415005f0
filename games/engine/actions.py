"""step(game, action) -> (game, events): the only way a Game changes.

`step` never changes the Game it is given (nor anything reachable from it): it returns a
new Game that shares every value the action left alone and holds new lists and dicts for
what changed (copy-on-write, see Game.evolve). Every handler validates the whole action
first (raising Refusal) and only then builds the new state. Handlers return events:
dicts with "type"; a private event carries "only": seat (seen by that seat alone).
`apply(game, action) -> events` is the in-place form for callers that keep one Game
object (it makes `game` become the new state). Every rule asks `game.rules`.
"""

from collections.abc import Callable, Mapping
from typing import Any

from .cards import DEALT_CARDS, KITTY_SIZE, RANKS, VALID, holds, shuffled_deck
from .declare import Declaration, check_declaration, flip_trump
from .errors import rule_refusal
from .follow import is_legal_follow, lead_refusal
from .game import Game, deal_receiver, dealer_of, hands_of
from .order import TrumpContext
from .scoring import penalty_delta, throw_penalty
from .seats import next_seat
from .trick_end import finish_trick
from .tricks import FailedThrow, check_throw

Action = Mapping[str, Any]  # a JSON object from a client, the clock, a bot or the log
Event = dict[str, Any]  # a JSON object for the log and the readers

# House rule no_declaration = redeal (§3.4): after this many redeals of one hand the 4th
# kitty card is turned up after all, so that a table where nobody declares still plays.
MAX_REDEALS = 3


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


def _without(hand: list[str], cards: list[str]) -> list[str]:
    """A new hand: `hand` less `cards` (the caller checked they are held)."""
    out = list(hand)
    for c in cards:
        out.remove(c)
    return out


def _replaced(items: list[Any], index: int, value: Any) -> list[Any]:
    """A new list: `items` with `items[index]` replaced."""
    out = list(items)
    out[index] = value
    return out


# --- start_hand / deal --------------------------------------------------------
def _deal_fields(g: Game, deck: list[str]) -> None:
    """The fields of a fresh deal of `deck` (start_hand, and a redeal)."""
    g.deck = deck
    g.phase = "deal"
    g.trump = None
    g.turn = None
    g.dealt = 0
    g.hands = [[], [], [], []]
    g.areas = [[], [], [], []]
    g.standing = None
    g.declarations = []
    g.flipped = None
    g.kitty = deck[DEALT_CARDS : DEALT_CARDS + KITTY_SIZE]


def _board(action: Action) -> tuple[int, dict[str, str]] | None:
    """A start_hand's optional "board": {"dealer": seat, "levels": {"0": rank, "1": rank}},
    a hand fixed in advance (duplicate play, botmatch): its dealer and both teams' levels
    instead of those the match reached."""
    board = action.get("board")
    if board is None:
        return None
    dealer = board.get("dealer") if isinstance(board, Mapping) else None
    levels = board.get("levels") if isinstance(board, Mapping) else None
    if type(dealer) is not int or not 0 <= dealer <= 3:
        raise rule_refusal("bad_action", problem="a board's dealer must be 0, 1, 2 or 3")
    if not isinstance(levels, Mapping) or set(levels) != {"0", "1"} or not all(r in RANKS for r in levels.values()):
        raise rule_refusal("bad_action", problem="a board's levels must give both teams a rank")
    return dealer, {"0": levels["0"], "1": levels["1"]}


def start_hand(game: Game, action: Action) -> tuple[Game, list[Event]]:
    _phase(game, "ready", "scored")
    seed = action.get("seed")
    if not isinstance(seed, (str, int)) or isinstance(seed, bool):
        raise rule_refusal("bad_action", problem="seed must be a string")
    board = _board(action)
    deck = shuffled_deck(seed)
    g = game.evolve()
    g.hand_no += 1
    if board is not None:
        # A board: dealer and levels fixed in advance; the dealer receives the first card
        # as in any later hand (§3.6), and declarations only choose trump (§3.5).
        g.dealer, g.levels = board
        g.first = g.dealer
    elif g.hand_no == 1:
        g.dealer, g.first = None, 0  # §3.5, §3.6: first hand
    else:
        assert g.result is not None  # "scored": the last hand's result
        g.dealer = g.result["next_dealer"]  # §8.2 rotation, fixed before the deal
        g.first = g.dealer
    _deal_fields(g, deck)
    g.buried = None
    g.leader = None
    g.trick = []
    g.tricks = []
    g.defender_points = 0
    g.penalties = 0
    g.last_failed_throw = None
    g.redeals = 0
    return g, [
        {
            "type": "hand_started",
            "hand_no": g.hand_no,
            "dealer": g.dealer,
            "first": g.first,
            "levels": dict(g.levels),
            "level": g.level,
        }
    ]


def deal(game: Game, action: Action) -> tuple[Game, list[Event]]:
    _phase(game, "deal")
    upto = action.get("upto", game.dealt + 1)
    if type(upto) is not int or not game.dealt < upto <= DEALT_CARDS:
        raise rule_refusal("bad_action", problem=f"upto must be between {game.dealt + 1} and {DEALT_CARDS}")
    events: list[Event] = []
    first, deck = game.first, game.deck
    assert first is not None and deck is not None
    hands = list(hands_of(game))
    fresh = [False] * 4  # copy each receiving hand once
    for i in range(game.dealt, upto):
        seat = deal_receiver(first=first, index=i)
        if not fresh[seat]:
            hands[seat] = list(hands[seat])
            fresh[seat] = True
        hands[seat].append(deck[i])
        events.append({"type": "card_dealt", "seat": seat, "card": deck[i], "n": i + 1, "only": seat})
    g = game.evolve()
    g.hands = hands
    g.dealt = upto
    if upto == DEALT_CARDS:
        g.phase = "last_chance"  # §3.4: a short window, then fix_trump
        events.append({"type": "deal_complete"})
    return g, events


# --- declarations and trump ---------------------------------------------------
def declare(game: Game, action: Action) -> tuple[Game, list[Event]]:
    _phase(game, "deal", "last_chance")
    seat, cards = _seat(action), _cards(action)
    hands, areas, declarations = list(hands_of(game)), game.areas, game.declarations
    assert areas is not None and declarations is not None
    new = check_declaration(seat, cards, hands[seat], game.standing, game.level, game.rules)
    areas = list(areas)
    events: list[Event] = []
    if game.standing is not None and not new["reinforce"]:
        # §3.3: overridden cards go straight back to their owner's hand (with a partner's
        # reinforcement, house rule, two areas hold the standing declaration).
        for owner in range(4):
            back = areas[owner]
            if back:
                hands[owner] = hands[owner] + back
                areas[owner] = []
                events.append({"type": "declaration_overridden", "seat": owner, "cards": list(back)})
    hands[seat] = _without(hands[seat], cards)
    areas[seat] = areas[seat] + cards
    entry: Declaration = {
        "seat": seat,
        "cards": list(cards),
        "strength": new["strength"],
        "trump": new["trump"],
        "reinforce": new["reinforce"],
    }
    g = game.evolve()
    g.hands, g.areas = hands, areas
    g.standing = {"seat": new["seat"], "cards": new["cards"], "strength": new["strength"], "trump": new["trump"]}
    g.declarations = declarations + [entry]
    events.insert(0, dict(entry, type="declared"))
    return g, events


def _redeal(game: Game) -> tuple[Game, list[Event]]:
    """House rule no_declaration = redeal (§3.4): the same hand is dealt again from a new
    shuffle, derived from the old deck so that a replay of the log deals the same cards."""
    deck = game.deck
    assert deck is not None and game.hands is not None and game.areas is not None
    new_deck = shuffled_deck("redeal:" + " ".join(deck))
    g = game.evolve()
    _deal_fields(g, new_deck)
    g.redeals = game.redeals + 1
    return g, [{"type": "redealt", "redeals": g.redeals, "first": g.first}]


def fix_trump(game: Game, action: Action) -> tuple[Game, list[Event]]:
    _phase(game, "last_chance")
    rules, kitty, declarations = game.rules, game.kitty, game.declarations
    assert game.areas is not None and kitty is not None and declarations is not None
    if game.standing is None and rules.no_declaration == "redeal" and game.redeals < MAX_REDEALS:
        return _redeal(game)
    g = game.evolve()
    events: list[Event] = []
    if game.standing is not None:
        g.trump = game.standing["trump"]
        if g.dealer is None:
            # §3.5 first hand: the standing declarer; house rule: the first declarer (抢庄).
            first_declarer = rules.first_dealer == "first_declarer"
            g.dealer = declarations[0]["seat"] if first_declarer else game.standing["seat"]
    else:
        if rules.no_declaration == "no_trump":
            g.trump = "NT"  # house rule: nobody declared, so no-trump (no card is turned up)
        else:
            g.flipped = kitty[3]  # §3.4: the 4th kitty card, 1-based
            g.trump = flip_trump(g.flipped)
            events.append({"type": "kitty_flipped", "card": g.flipped})
        if g.dealer is None:
            g.dealer = 0
    # §3.4: declaration areas go back to their owners; §4.1: the dealer picks up the kitty.
    hands = [h + a for h, a in zip(hands_of(game), game.areas)]
    hands[g.dealer] = hands[g.dealer] + kitty
    g.hands, g.areas = hands, [[], [], [], []]
    g.phase = "bury"
    g.turn = g.dealer
    events.append({"type": "trump_fixed", "trump": g.trump, "dealer": g.dealer, "level": g.level})
    events.append({"type": "kitty_taken", "seat": g.dealer, "cards": list(kitty), "only": g.dealer})
    return g, events


def bury(game: Game, action: Action) -> tuple[Game, list[Event]]:
    _phase(game, "bury")
    seat, cards = _seat(action), _cards(action)
    if seat != game.dealer:
        raise rule_refusal("not_dealer")
    if len(cards) != KITTY_SIZE:
        raise rule_refusal("bury_needs_8")
    hands = hands_of(game)
    if not holds(hands[seat], cards):
        raise rule_refusal("cards_not_in_hand")
    g = game.evolve()
    g.hands = _replaced(hands, seat, _without(hands[seat], cards))
    g.buried = list(cards)
    g.phase = "play"
    g.turn = g.leader = g.dealer  # §5.2: the dealer leads the first trick
    g.trick = []
    return g, [
        {"type": "buried", "seat": seat, "cards": list(cards), "only": seat},
        {"type": "play_started", "leader": g.leader},
    ]


# --- play ---------------------------------------------------------------------
def check_play(game: Game, seat: int, cards: list[str], ctx: TrumpContext | None = None) -> FailedThrow | None:
    """Validate a play without changing anything. Returns the throw check result for a
    failed throw (else None); raises Refusal when the play is illegal. `ctx`: the game's
    play context, when the caller has it already."""
    if seat != game.turn:
        raise rule_refusal("not_your_turn")
    hands = hands_of(game)
    hand = hands[seat]
    ctx = ctx or game.play_context()
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


def play(game: Game, action: Action) -> tuple[Game, list[Event]]:
    _phase(game, "play")
    seat, cards = _seat(action), _cards(action)
    ctx = game.play_context()
    failed = check_play(game, seat, cards, ctx)
    trick, tricks = game.trick, game.tricks
    assert trick is not None and tricks is not None
    g = game.evolve()
    events: list[Event] = []
    if failed is not None:
        # §5.3: a failed throw leads only the forced component and costs a penalty.
        penalty = throw_penalty(attempted=cards, forced=failed["forced"], penalty=failed["penalty"], rules=g.rules)
        delta = penalty_delta(seat=seat, dealer=dealer_of(game), penalty=penalty)
        g.penalties += delta
        g.last_failed_throw = {
            "seat": seat,
            "attempted": list(cards),
            "forced": failed["forced"],
            "beatable": failed["beatable"],
            "penalty": penalty,
            "defenders_delta": delta,
            "trick_no": len(tricks) + 1,
        }
        events.append(dict(g.last_failed_throw, type="throw_failed"))
        cards = failed["forced"]
    # Copy-on-write, inline: this is the hot path of every hand (bench/engine.py).
    hands = hands_of(game).copy()
    hand = hands[seat] = hands[seat].copy()
    for c in cards:
        hand.remove(c)
    g.hands = hands
    g.trick = trick + [[seat, cards.copy()]]
    events.append({"type": "played", "seat": seat, "cards": cards.copy()})
    if len(g.trick) < 4:
        g.turn = next_seat(seat)
        return g, events
    return g, events + finish_trick(g, g.trick, tricks, ctx)


HANDLERS: dict[str, Callable[[Game, Action], tuple[Game, list[Event]]]] = {
    "start_hand": start_hand,
    "deal": deal,
    "declare": declare,
    "fix_trump": fix_trump,
    "bury": bury,
    "play": play,
}
ACTION_TYPES = frozenset(HANDLERS)  # what an event log may hand to apply()


def step(game: Game, action: Action) -> tuple[Game, list[Event]]:
    """Validate one action and return (the new Game, its events); `game` is never changed.
    On Refusal nothing was built."""
    if not isinstance(action, Mapping):
        raise rule_refusal("bad_action", problem="an action is a JSON object")
    handler = HANDLERS.get(str(action.get("type")))
    if handler is None:
        raise rule_refusal("unknown_action", type=str(action.get("type"))[:40])
    return handler(game, action)


def apply(game: Game, action: Action) -> list[Event]:
    """`step` in place: `game` becomes the new state; returns the events. On Refusal
    `game` is untouched."""
    new, events = step(game, action)
    game.become(new)
    return events
