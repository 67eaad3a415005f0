"""What a lesson's page shows: its brief, the table from the learner's seat, the feedback on
the last move and the hand to act with. Built from the engine's view of the learner's seat
(RULES §9): the other hands, the deck and a kitty the learner did not pick up are never in
it. The same context renders the whole page and the fragment a move answers with."""

from typing import Any

from games import engine
from games.rulebook import rule_url
from games.templatetags.cards import card_group
from games.words.faces import faces, hand_faces
from games.words.refusals import refusal_sentence

from . import guided
from .catalogue import LESSONS, next_lesson, number_of
from .coach import outcome_of, verdict_of
from .lesson import Lesson
from .outcome import SEAT_LABELS, result_story
from .positions import LEARNER, restore

# Where each seat sits around the learner's table (RULES §1.1: the next player on the right).
PLACES = {LEARNER: "bottom", 1: "right", 2: "top", 3: "left"}


def board_context(lesson: Lesson, state: dict[str, Any]) -> dict[str, Any]:
    game = restore(state["game"])
    view = engine.view(game, LEARNER)
    ctx = engine.view_context(view)
    feedback = _feedback(lesson, state.get("feedback"), game, ctx)
    done = bool(feedback and feedback["status"] == "done")
    action = _action(lesson, game, done)
    hand = hand_faces(view, ctx)
    selected = set(state.get("selected", ()))
    for index, face in enumerate(hand):
        face["selected"] = index in selected
        face["group"] = card_group(face)  # a gap between suits, as in the table's hand
    return {
        "lesson": lesson,
        "number": number_of(lesson),
        "total": len(LESSONS),
        "rule_link": rule_url(lesson.rule),
        "showcase": _showcase(lesson, ctx),
        "scale": engine.score_bands() if lesson.scale else None,
        "view": view,
        "seats": _seats(view, ctx),
        "trick_shown": bool(shown_trick(view)[0]),
        "trick_done": shown_trick(view)[1],
        "trump": _trump_words(view),
        "hand": hand,
        "action": action,
        "need": _need(view, action),
        "selected_count": len(selected),
        "feedback": feedback,
        "done": done,
        "tip": guided.tip(game) if lesson.action == "hand" and action else "",
        "can_suggest": lesson.action == "hand" and bool(action) and bool(guided.advice(game)),
        "next": next_lesson(lesson),
        "previous": _previous(lesson, view, ctx),
    }


def _previous(lesson: Lesson, view: dict[str, Any], ctx) -> list[dict[str, Any]] | None:
    """In the guided hand, the trick finished before the one on the table: the bots may
    have ended it and led again before the learner's turn."""
    if lesson.action != "hand" or not view["trick"] or not view.get("last_trick"):
        return None
    return _trick_lines(view["last_trick"], ctx)


def _action(lesson: Lesson, game: engine.Game, done: bool) -> str:
    """The move the learner makes now ("play", "bury", "declare"), or "" when none."""
    if done or game.phase in ("scored", "finished"):
        return ""
    if game.phase in ("deal", "last_chance"):
        return "declare"
    if game.phase == "bury":
        return "bury" if game.dealer == LEARNER else ""
    return "play" if game.turn == LEARNER else ""


def _need(view: dict[str, Any], action: str) -> int | None:
    """How many cards the move takes, when that is fixed (a follow, a bury)."""
    if action == "bury":
        return engine.KITTY_SIZE
    if action == "play" and view["trick"]:
        return len(view["trick"][0][1])
    return None


def shown_trick(view: dict[str, Any]) -> tuple[list, bool]:
    """The trick on the table: the current one or, until the next lead, the one just won
    (as the table shows it); and whether it is finished."""
    if view["trick"]:
        return view["trick"], False
    last = view.get("last_trick")
    return (last["plays"], True) if last else ([], False)


def _seats(view: dict[str, Any], ctx) -> list[dict[str, Any]]:
    trick, _finished = shown_trick(view)
    played = {seat: cards for seat, cards in trick}
    winning = engine.trick_winner(trick, ctx) if trick and view["trump"] else None
    return [
        {
            "place": PLACES[seat],
            "label": SEAT_LABELS[seat],
            "count": view["hand_counts"][seat],
            "played": faces(played.get(seat), ctx),
            "declared": faces(view["declaration_areas"][str(seat)], ctx),
            "is_dealer": view["dealer"] == seat,
            "is_turn": view["turn"] == seat,
            "is_winning": winning == seat,
        }
        for seat in (2, 3, 1, LEARNER)
    ]


def _trump_words(view: dict[str, Any]) -> dict[str, Any]:
    trump = view["trump"] or (view.get("standing") or {}).get("trump")
    return {
        "level": view["result"]["level"] if view.get("result") else view["level"],  # the hand's, not the next
        "symbol": engine.SUIT_SYMBOLS.get(trump or "", ""),
        "no_trump": trump == "NT",
        "red": trump in ("H", "D"),
        "fixed": bool(view["trump"]),
        "defender_points": view["defender_points"] if view["phase"] == "play" else None,
    }


def _showcase(lesson: Lesson, ctx) -> dict[str, Any] | None:
    if lesson.showcase is None:
        return None
    label, cards = lesson.showcase
    return {"label": label, "cards": faces(ctx.sort(cards.split()), ctx)}


def _feedback(lesson: Lesson, feedback: dict[str, Any] | None, game: engine.Game, ctx) -> dict[str, Any] | None:
    """The answer to the last move, in the reader's language: the engine's refusal, or the
    lesson's verdict with the tricks the attempt played."""
    if not feedback:
        return None
    status = feedback["status"]
    if status == "refused":
        refusal = feedback["refusal"]
        rule = refusal.get("rule")
        return {
            "status": status,
            "text": refusal_sentence(refusal["template"], refusal.get("plural"), refusal.get("params", {})),
            "rule_link": rule_url(rule) if rule else "",
        }
    if lesson.action == "hand":  # no verdict but the hand's score, once it is over
        if status != "done" or game.result is None:
            return None
        return {
            "status": status,
            "text": result_story(game.result),
            "kitty": faces(game.result["buried"], ctx),
        }
    outcome = outcome_of(feedback)
    verdict = verdict_of(lesson, outcome)
    result = outcome.result  # a hand played to its end: its kitty is shown to all (RULES §6.3)
    return {
        "status": "done" if verdict.passed else "short",
        "text": verdict.text,
        "tricks": [_trick_lines(trick, ctx) for trick in outcome.tricks],
        "kitty": faces(result["buried"], ctx) if result else None,
    }


def _trick_lines(trick: dict[str, Any], ctx) -> list[dict[str, Any]]:
    return [
        {"label": SEAT_LABELS[seat], "cards": faces(cards, ctx), "won": seat == trick["winner"]}
        for seat, cards in trick["plays"]
    ]
