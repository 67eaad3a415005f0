"""What one seat (or a spectator) may see of a game (RULES §9).

A view never holds another seat's hand, the undealt deck, or — for anyone but the
dealer, before the hand is scored — the kitty or the bury. `reveal=True` is for the
server and finished-hand replays: it adds everything.
"""

from collections.abc import Iterable, Mapping
from typing import Any

from .advice import legal_declarations
from .cards import DEALT_CARDS, points
from .game import Game
from .order import TrumpContext, context, standing_context
from .rules import DEFAULT_RULES
from .scoring import HandResult
from .seats import team_of


def _sorted(game: Game, cards: Iterable[str]) -> list[str]:
    return game.ctx.sort(cards)


def _point_cards(tricks: Iterable[Mapping[str, Any]]) -> list[list[str]]:
    """The 5s, 10s and Ks each team (0: North–South, 1: East–West) has won in tricks so
    far, in the order they were won (RULES §1.2, §7.1). Every play is public (§9)."""
    won: list[list[str]] = [[], []]
    for trick in tricks:
        won[team_of(trick["winner"])] += [c for _seat, cards in trick["plays"] for c in cards if points([c])]
    return won


def _kitty_for(game: Game, seat: int | None) -> list[str] | None:
    """§4.1/§6.3: the dealer sees the picked-up kitty during bury, then the bury;
    everyone sees the bury once the hand is over."""
    if game.phase in ("scored", "finished") and game.buried is not None and game.dealt == DEALT_CARDS:
        return list(game.buried)
    if seat is not None and seat == game.dealer:
        if game.phase == "bury" and game.kitty is not None:
            return list(game.kitty)
        if game.phase == "play" and game.buried is not None:
            return list(game.buried)
    return None


def view(game: Game, seat: int | None, *, reveal: bool = False) -> dict[str, Any]:
    """The JSON-able view of `game` for `seat` (0-3) or a spectator (None)."""
    hands, areas = game.hands or [[], [], [], []], game.areas or [[], [], [], []]
    in_hand = game.hands is not None
    over = game.phase in ("scored", "finished")
    hand = _sorted(game, hands[seat]) if in_hand and seat is not None else []
    tricks = game.tricks or []
    last = tricks[-1] if tricks else None
    v: dict[str, Any] = {
        "seat": seat,
        "phase": game.phase,
        "hand_no": game.hand_no,
        "levels": dict(game.levels),
        "level": game.level,
        "dealer": game.dealer,
        "trump": game.trump,
        "dealt": game.dealt,
        "hand": hand,
        "hand_counts": [len(h) for h in hands] if in_hand else [0, 0, 0, 0],
        "declaration_areas": {str(s): list(areas[s]) if in_hand else [] for s in range(4)},
        "standing": dict(game.standing) if game.standing else None,
        "declarations": [dict(d) for d in game.declarations or []],
        "flipped": game.flipped,
        "kitty": _kitty_for(game, seat),
        "turn": game.turn,
        "leader": game.leader,
        "trick": [[s, list(c)] for s, c in game.trick or []],
        "last_trick": (
            {"plays": [[s, list(c)] for s, c in last["plays"]], "winner": last["winner"], "points": last["points"]}
            if last
            else None
        ),
        "defender_points": game.defender_points,
        "penalties": game.penalties,
        "last_failed_throw": dict(game.last_failed_throw) if game.last_failed_throw else None,
        "result": game.result if over else None,
        "winner": game.winner,
        "tricks_played": len(tricks),
        "point_cards": _point_cards(tricks),
        "can_declare": (
            legal_declarations(game, seat) if seat is not None and game.phase in ("deal", "last_chance") else []
        ),
    }
    if game.rules != DEFAULT_RULES:
        v["rules"] = game.rules.shared_json()  # public, read-only; a view under RULES.md has no "rules"
    if reveal:
        v["hands"] = {str(s): _sorted(game, hands[s]) if in_hand else [] for s in range(4)}
        v["kitty_original"] = list(game.kitty) if game.kitty else None
        v["buried"] = list(game.buried) if game.buried else None
        v["tricks"] = [
            {
                "leader": t["leader"],
                "plays": [[s, list(c)] for s, c in t["plays"]],
                "winner": t["winner"],
                "points": t["points"],
            }
            for t in tricks
        ]
    if v["result"] is not None:
        v["result"] = HandResult.from_json(v["result"]).to_json()  # a copy: the view shares nothing with the game
    return v


def view_context(v: Mapping[str, Any] | None) -> TrumpContext | None:
    """The TrumpContext a view's cards are marked and sorted with (None without a view):
    once the hand is scored, the hand's own level and trump (the levels have moved on,
    §8); before trump is fixed, the standing declaration's (as `Game.ctx`, §3.3). The 2s
    follow the view's rules (a view without "rules" is under RULES.md)."""
    if not v:
        return None
    twos = bool((v.get("rules") or {}).get("permanent_twos", True))
    if v.get("result"):
        return context(v["result"]["level"], v["result"]["trump"], twos)
    if not v.get("level"):
        return None
    return standing_context(level=v["level"], trump=v.get("trump"), standing=v.get("standing"), twos=twos)
