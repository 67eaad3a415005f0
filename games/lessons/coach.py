"""The coach: applies a learner's move to a lesson through the engine and judges it.

A lesson's state is plain JSON, kept in the learner's session (never sent by the client):
the Game the learner acts in now (`game`), the moves and events of the attempt so far,
the cards picked without JavaScript (`selected`) and the feedback on the last move. A move
the engine refuses changes nothing and keeps its Refusal, shown in the reader's words. A
move it accepts is played on: the other seats answer (the lesson's scripted replies, else
the basic bot), the learner's forced plays are made for them, and when the attempt is over
(`Lesson.until`) the lesson's check gives its verdict: passed, the lesson is done; not
passed, the position starts again and the verdict says why the move fell short.
"""

import zlib
from typing import Any

from games import engine
from games.engine.errors import rule_refusal

from . import guided
from .lesson import Lesson
from .outcome import Outcome, Verdict
from .positions import LEARNER, cards, position_game, restore, snapshot

REPLY_LEVEL = "basic"  # answers the lessons do not script (games/bots)
Action = dict[str, Any]
State = dict[str, Any]


def lesson_start(lesson: Lesson) -> State:
    """A fresh attempt at `lesson`."""
    game = guided.start() if lesson.action == "hand" else position_game(_position(lesson))
    if lesson.action == "hand":
        game, _events = guided.advance(game)
    return {
        "key": lesson_key(lesson),
        "game": snapshot(game),
        "moves": [],
        "events": [],
        "selected": [],
        "feedback": None,
    }


def lesson_key(lesson: Lesson) -> int:
    """What a state was made for: a session's state of a lesson since changed (a new
    position, a new deal) is not played on, the lesson starts afresh."""
    return zlib.crc32(repr((lesson.action, lesson.until, lesson.position, guided.SEED)).encode())


def lesson_act(lesson: Lesson, state: State, *, kind: str, played: list[str]) -> State:
    """The state after the learner's move (`kind`: play, declare, bury or pass). The
    state given is not changed."""
    game = restore(state["game"])
    action: Action = {"type": kind, "seat": LEARNER, "cards": list(played)}
    try:
        if lesson.action == "hand":
            game, events = guided.act(game, action)
        else:
            if kind != lesson.action:
                raise rule_refusal("unknown_action", type=kind[:40])
            game, events = engine.step(game, action)
    except engine.Refusal as refusal:
        return {**state, "feedback": {"status": "refused", "refusal": refusal.to_json()}}
    if lesson.action == "hand":
        status = "done" if guided.is_over(game) else "continue"
        return {**state, "game": snapshot(game), "selected": [], "feedback": {"status": status}}
    moves = state["moves"] + [list(played)]
    events = state["events"] + events
    game, events, finished = _play_on(lesson, game, events)
    if not finished:
        return {**state, "game": snapshot(game), "moves": moves, "events": events, "selected": [], "feedback": None}
    attempt = {"game": snapshot(game), "events": events, "moves": moves}
    if verdict_of(lesson, outcome_of(attempt)).passed:
        return {**state, "game": snapshot(game), "selected": [], "feedback": {"status": "done", **attempt}}
    fresh = lesson_start(lesson)
    return {**fresh, "feedback": {"status": "short", **attempt}}


def outcome_of(attempt: dict[str, Any]) -> Outcome:
    """A finished attempt as the session keeps it ({"game", "events", "moves"})."""
    return Outcome(game=restore(attempt["game"]), events=attempt["events"], moves=attempt["moves"])


def verdict_of(lesson: Lesson, outcome: Outcome) -> Verdict:
    """The lesson's verdict on a finished attempt, in the active language."""
    assert lesson.check is not None
    return lesson.check(outcome)


def _position(lesson: Lesson):
    assert lesson.position is not None
    return lesson.position


def _finished(lesson: Lesson, game: engine.Game, events: list[dict[str, Any]]) -> bool:
    if lesson.until == "action":
        return True
    wanted = "trick_won" if lesson.until == "trick" else "hand_scored"
    return any(e["type"] == wanted for e in events) or game.phase != "play"


def _play_on(lesson: Lesson, game: engine.Game, events: list[dict[str, Any]]):
    """Play the other seats (and the learner's forced plays) until the attempt is over or
    the learner has a choice to make: (game, events, finished)."""
    while not _finished(lesson, game, events):
        seat = game.turn
        assert seat is not None
        if seat == LEARNER:
            forced = engine.forced_play(game, LEARNER)
            if forced is None:
                return game, events, False
            game, more = engine.step(game, {"type": "play", "seat": LEARNER, "cards": forced})
        else:
            game, more = reply(game, seat, _position(lesson).replies.get(seat, ()))
        events = events + more
    return game, events, True


def reply(game: engine.Game, seat: int, options: tuple[str, ...], level: str = REPLY_LEVEL):
    """`seat`'s answer: the first of the lesson's scripted plays the engine accepts (a
    lesson scripts an answer for each lead it expects), else the bot's play."""
    for option in options:
        try:
            return engine.step(game, {"type": "play", "seat": seat, "cards": cards(option)})
        except engine.Refusal:
            continue
    return guided.bot_move(game, seat, level)
