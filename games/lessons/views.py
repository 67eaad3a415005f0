"""/learn/ (the lessons and the learner's progress) and /learn/<slug>/ (one lesson).

A move is a POST: with JavaScript (static/js/lesson.js) it asks for the board fragment
alone (header X-Lesson-Fragment) and swaps it in; without, the form posts and the page is
shown again (post/redirect/get). Without JavaScript a card is picked by posting its place in
the hand (`toggle`), so the server keeps that selection too. The lesson's state lives in the
session: nothing the client sends but its move is trusted.
"""

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_http_methods

from games import engine
from games.engine.errors import rule_refusal

from . import guided
from .board import board_context
from .catalogue import LESSONS, first_not_done, lesson_by_slug
from .coach import lesson_act, lesson_key, lesson_start
from .lesson import Lesson
from .positions import LEARNER, restore
from .progress import lesson_complete, lesson_state, lesson_state_save, lessons_done

MOVES = ("play", "declare", "bury", "pass")  # the learner's moves; "suggest" picks the tip's cards
MAX_CARDS = 40  # more than any move needs: a bury picks 8 of 33


def learn(request):
    done = lessons_done(request=request)
    rows = [
        {"number": number, "lesson": lesson, "done": lesson.slug in done}
        for number, lesson in enumerate(LESSONS, start=1)
    ]
    upcoming = first_not_done(done)
    return render(
        request,
        "learn/index.html",
        {
            "rows": rows,
            "done_count": sum(row["done"] for row in rows),
            "continue_with": upcoming,
            "continue_number": LESSONS.index(upcoming) + 1 if upcoming else None,
        },
    )


@require_http_methods(["GET", "POST"])
def lesson(request, slug: str):
    found = lesson_by_slug(slug)
    if found is None:
        raise Http404("no such lesson")
    state = lesson_state(request=request, slug=slug)
    if state is None or state.get("key") != lesson_key(found):
        state = lesson_start(found)
    if request.method == "POST":
        state = _move(request, found, state)
    lesson_state_save(request=request, slug=slug, state=state)
    if request.method == "POST" and request.headers.get("X-Lesson-Fragment") == "1":
        return HttpResponse(render_to_string("learn/partials/board.html", board_context(found, state), request))
    if request.method == "POST":
        return redirect("lesson", slug=slug)
    return render(request, "learn/lesson.html", board_context(found, state))


def _move(request, found: Lesson, state: dict) -> dict:
    """The state after the posted move; a move that cannot be made changes nothing but
    the feedback, which says why."""
    post = request.POST
    if "toggle" in post:
        return _toggle(state, post["toggle"])
    op = post.get("op", "")
    if op == "retry":
        return lesson_start(found)
    if op == "clear":
        return {**state, "selected": []}
    if op == "suggest":
        return _suggest(found, state)
    if (state.get("feedback") or {}).get("status") == "done":
        return state  # the lesson is over: only "again" starts it anew
    if op not in MOVES:
        return {
            **state,
            "feedback": {"status": "refused", "refusal": rule_refusal("unknown_action", type=op[:40]).to_json()},
        }
    played = post.getlist("cards")[:MAX_CARDS] if "cards" in post else _selected_cards(state)
    state = lesson_act(found, state, kind=op, played=played)
    if (state.get("feedback") or {}).get("status") == "done":
        lesson_complete(request=request, slug=found.slug)
    return state


def _hand(state: dict) -> list[str]:
    return engine.view(restore(state["game"]), LEARNER)["hand"]


def _toggle(state: dict, value: str) -> dict:
    """Pick or put back the card at place `value` of the hand (as shown, RULES §2.6)."""
    try:
        index = int(value)
    except ValueError:
        return state
    if not 0 <= index < len(_hand(state)):
        return state
    selected = set(state.get("selected", ()))
    selected ^= {index}
    return {**state, "selected": sorted(selected)}


def _suggest(found: Lesson, state: dict) -> dict:
    """Pick the cards the guided hand's tip suggests (the learner still plays them)."""
    cards = guided.advice(restore(state["game"])) if found.action == "hand" else None
    if not cards:
        return state
    hand, selected = _hand(state), []
    for code in cards:
        selected.append(next(i for i, held in enumerate(hand) if held == code and i not in selected))
    return {**state, "selected": sorted(selected)}


def _selected_cards(state: dict) -> list[str]:
    hand = _hand(state)
    return [hand[i] for i in state.get("selected", ()) if i < len(hand)]
