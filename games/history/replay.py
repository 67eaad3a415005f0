"""Replays: fold a table's stored action log through the rules engine (docs/history.md).

Pure: no Django, no database. The caller (games/history/matches.py) hands over the engine
actions of one match in log order, split in two — those before the hand's
`start_hand` (folded silently: they only rebuild levels, dealer and history) and
the hand's own actions — and gets back one `Frame` per step:

* `start_hand` → one frame;
* a stored `deal upto n` → one frame per dealt card (the engine deals `upto k` for each k);
* `declare` → one frame (naming the declaration it overrode, if any);
* `fix_trump` → the flipped kitty card (when nobody declared) as its own frame, then
  trump fixed with the dealer picking up the kitty;
* `bury` → one frame;
* `play` → one frame per play; the fourth play of a trick shows the full trick, then
  a "trick won" frame collects it; the hand's last trick adds a "hand scored" frame.

Every frame holds `engine.view(game, None, reveal=True)` (all four hands, the kitty
and the bury), so replays must only be served for finished hands (RULES §9).
"""

from dataclasses import dataclass, field

from games import engine
from games.engine import ReplayError, apply_logged, fold


@dataclass
class Frame:
    kind: str  # hand_started, card_dealt, declared, flipped, trump_fixed, buried,
    view: dict  # played, trick_won, hand_scored
    seat: int | None = None
    cards: list = field(default_factory=list)
    info: dict = field(default_factory=dict)
    action: int | None = None  # the index of the hand action this step belongs to


def hand_frames(before, hand_actions, rules: engine.Rules = engine.DEFAULT_RULES) -> list[Frame]:
    """The steps of one hand under `rules`: fold `before`, then step through `hand_actions`."""
    game = fold(before, rules)
    frames: list[Frame] = []
    for index, action in enumerate(hand_actions):
        first = len(frames)
        _step_frames(game, action, frames)
        for frame in frames[first:]:
            frame.action = index
    return frames


def _step_frames(game, action, frames: list[Frame]) -> None:
    """Append the steps of one hand action to `frames`."""
    kind = action.get("type")
    if kind == "deal":
        for upto in range(game.dealt + 1, action["upto"] + 1):
            (event,) = [e for e in apply_logged(game, {"type": "deal", "upto": upto}) if e["type"] == "card_dealt"]
            frames.append(Frame("card_dealt", _view(game), event["seat"], [event["card"]], {"n": event["n"]}))
    elif kind == "play":
        frames += _play_frames(game, action)
    elif kind == "fix_trump":
        frames += _fix_trump_frames(game, action)
    else:
        events = apply_logged(game, action)
        frames.append(_single_frame(game, action, events))


def _view(game) -> dict:
    return engine.view(game, None, reveal=True)


def _single_frame(game, action, events) -> Frame:
    kind = action["type"]
    if kind == "start_hand":
        (started,) = [e for e in events if e["type"] == "hand_started"]
        return Frame(
            "hand_started",
            _view(game),
            started["dealer"],
            [],
            {"hand_no": started["hand_no"], "level": started["level"], "first": started["first"]},
        )
    if kind == "declare":
        declared = next(e for e in events if e["type"] == "declared")
        overridden = next((e for e in events if e["type"] == "declaration_overridden"), None)
        info = {
            "trump": declared["trump"],
            "reinforce": declared["reinforce"],
            "overridden": overridden["seat"] if overridden else None,
        }
        return Frame("declared", _view(game), declared["seat"], list(declared["cards"]), info)
    if kind == "bury":
        (buried,) = [e for e in events if e["type"] == "buried"]
        return Frame("buried", _view(game), buried["seat"], list(buried["cards"]))
    raise ReplayError(f"not a step of a hand: {action!r}")


def _fix_trump_frames(game, action) -> list[Frame]:
    before = _view(game)
    events = apply_logged(game, action)
    frames = []
    redealt = next((e for e in events if e["type"] == "redealt"), None)
    if redealt:  # nobody declared and the house rule deals again (docs/house-rules.md)
        return [Frame("redealt", _view(game), redealt["first"], [], {"redeals": redealt["redeals"]})]
    flipped = next((e for e in events if e["type"] == "kitty_flipped"), None)
    if flipped:
        # The card is turned up before anything moves: the old view plus that one card.
        frames.append(Frame("flipped", dict(before, flipped=flipped["card"]), None, [flipped["card"]]))
    fixed = next(e for e in events if e["type"] == "trump_fixed")
    taken = next(e for e in events if e["type"] == "kitty_taken")
    frames.append(
        Frame(
            "trump_fixed",
            _view(game),
            fixed["dealer"],
            list(taken["cards"]),
            {"trump": fixed["trump"], "level": fixed["level"]},
        )
    )
    return frames


def _play_frames(game, action) -> list[Frame]:
    before = _view(game)
    events = apply_logged(game, action)
    after = _view(game)
    played = next(e for e in events if e["type"] == "played")
    failed = next((e for e in events if e["type"] == "throw_failed"), None)
    won = next((e for e in events if e["type"] == "trick_won"), None)
    scored = next((e for e in events if e["type"] == "hand_scored"), None)
    info = {"failed_throw": failed}
    if won is None:
        return [Frame("played", after, played["seat"], list(played["cards"]), info)]
    # The trick's last card: show the full trick before it is collected. That is the
    # view before this play with the cards moved from the hand onto the trick.
    full = dict(
        before,
        hands=after["hands"],
        hand_counts=after["hand_counts"],
        trick=[[seat, list(cards)] for seat, cards in after["last_trick"]["plays"]],
        turn=None,
    )
    frames = [Frame("played", full, played["seat"], list(played["cards"]), info)]
    collected = dict(after, result=None, phase=before["phase"], levels=before["levels"]) if scored else after
    frames.append(
        Frame("trick_won", collected, won["seat"], [], {"points": won["points"], "trick_no": won["trick_no"]})
    )
    if scored:
        match_won = next((e for e in events if e["type"] == "match_won"), None)
        frames.append(
            Frame(
                "hand_scored",
                after,
                None,
                [],
                {"result": scored["result"], "match_winner": match_won["team"] if match_won else None},
            )
        )
    return frames


def start_rules(start_match: dict) -> engine.Rules:
    """The Rules a match was started under, from its `start_match` log row (a row without
    them is older: RULES.md)."""
    return engine.Rules.from_json(start_match.get("rules"))


def engine_actions(actions) -> list[dict]:
    """Only what the engine folds: seating, bots' `bot_move` wrappers etc. never reach the log
    as engine actions, and `start_match` is where `fold` starts."""
    return [action for action in actions if action.get("type") in engine.ACTION_TYPES]
