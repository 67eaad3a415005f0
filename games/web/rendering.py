"""Server-side rendering of a seat's table view into HTML regions.

The same partials serve the first page load and every websocket push (STYLE), so a
reload shows exactly what a push showed. Input is an engine view (RULES §9), which
already holds only what this reader may see.
"""

from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy  # not aliased: makemessages only knows its own names

from games import bot_levels, engine, jinja_env
from games.models import Table
from games.ratings.selectors import table_rating_changes
from games.runtime import readiness
from games.templatetags.cards import card_button
from games.words.faces import SUITS, card_face, faces, hand_faces
from games.words.refusals import PHASES, refusal_sentence
from games.words.seats import seat_names

REGIONS = ("players", "center", "hand", "status")


def _bot_label(level: str) -> str:
    """games.bot_levels.seat_label in the active language."""
    return str(bot_levels.SEAT_LABELS.get(level, level))


def table_context(*, table, seats, view, viewer_seat, user, rating_changes=()) -> dict:
    """Everything the table templates need, laid out from the reader's point of view."""
    bottom = viewer_seat if viewer_seat is not None else 0
    # RULES §1.1: me at the bottom, my next player on my right, partner opposite.
    around = {
        "bottom": bottom,
        "right": engine.next_seat(bottom),
        "top": engine.partner_of(bottom),
        "left": engine.next_seat(bottom, 3),
    }
    names = seat_names(seats)
    ctx = trump_context(view)
    shown_trick, trick_done, winning = _table_trick(view, ctx)
    place_of = {position: place for place, position in around.items()}
    players = []
    for place, position in around.items():
        seat = seats[position]
        player = {
            "place": place,
            "position": position,
            "name": names[position],
            "team": engine.team_of(position),
            "is_bot": bool(seat.bot),
            "bot_level": seat.bot,
            "bot_label": _bot_label(seat.bot) if seat.bot else "",
            "autoplay": seat.autoplay,
            "is_free": seat.is_free,
            "is_me": position == viewer_seat,
            # Who the seat is to the reader: the partner across, an opponent on either side.
            "relation": "" if viewer_seat is None or place == "bottom" else "partner" if place == "top" else "opponent",
        }
        if view:
            player.update(
                count=view["hand_counts"][position],
                declared=faces(view["declaration_areas"].get(str(position)), ctx),
                played=faces(_trick_cards(shown_trick, position), ctx),
                is_winning=winning == position,
                is_dealer=view["dealer"] == position,
                is_turn=view["turn"] == position,
            )
        players.append(player)
    view = _named(view, names, ctx) if view else view
    clock_kind, deadline_ms = _countdown(table, seats, view)
    return {
        "clock_kind": clock_kind,
        "deadline_ms": deadline_ms,
        "hints": hints_allowed(table),
        "point_cards": _point_cards(view, ctx, viewer_seat),
        "previous_trick": _previous_trick(view, ctx, place_of) if view and not trick_done else None,
        "phase_label": PHASES.get(view["phase"], "") if view else "",
        "trump_symbol": SUITS.get((view or {}).get("trump") or "", ""),
        "dealer_name": _name(names, (view or {}).get("dealer")),
        "turn_name": _name(names, (view or {}).get("turn")),
        **hand_context(view, viewer_seat, ctx),
        "table": table,
        "players": players,
        "me": next((p for p in players if p["is_me"]), None),
        "trick_done": trick_done,
        "standing": _standing(view, names),
        "kitty": faces(view.get("kitty"), ctx) if view else [],
        "flipped": card_face(view["flipped"], ctx) if view and view.get("flipped") else None,
        "last_trick": _last_trick(view, ctx, names) if view else None,
        "names": names,
        "is_owner": user.is_authenticated and user.pk == table.owner_id,
        # What the owner may seat (games/bot_levels.py): offered only while the table waits.
        "bot_levels": bot_levels.choices() if table.status == Table.Status.WAITING else [],
        "bot_level_default": bot_levels.default(),
        "can_start": table.status == "waiting" and not any(s.is_free for s in seats),
        "seated": sum(not s.is_free for s in seats),
        "my_team": engine.team_of(viewer_seat) if viewer_seat is not None else None,
        # Between hands: the result's Ready, and who the next hand waits for.
        "ready": readiness.shown(seats, view["hand_no"], viewer_seat, names)
        if view and view["phase"] == "scored"
        else None,
        # The end-of-match screen says how ratings moved; read by the caller (the socket
        # renders without the database), see finished_rating_changes.
        "rating_changes": list(rating_changes),
    }


def finished_rating_changes(table) -> list[dict]:
    """The rating changes an end-of-match screen shows (a database read: call it outside
    the event loop), none while the match runs."""
    return table_rating_changes(table) if table.status == Table.Status.FINISHED else []


def hints_allowed(table) -> bool:
    """The Hint button (a bot's suggestion from the seat's own view) is for casual tables."""
    return not getattr(table, "rated", False)


def _countdown(table, seats, view) -> tuple[str, int | None]:
    """What the table is counting down to, and when (epoch ms; the page counts with the
    server's clock, sent with every push): a person's turn limit, the last-chance window
    (RULES §3.4) or the pause before the next hand. Bots' short delays are not shown."""
    if not view or table.deadline is None:
        return "", None
    phase, turn = view["phase"], view["turn"]
    if phase in ("bury", "play"):
        if turn is None or seats[turn].bot or seats[turn].autoplay or not table.turn_limit_s:
            return "", None
        kind = "turn"
    elif phase in ("last_chance", "scored"):
        kind = "last_chance" if phase == "last_chance" else "next_hand"
    else:
        return "", None
    return kind, int(table.deadline.timestamp() * 1000)


def _point_cards(view, ctx, viewer_seat) -> list[dict]:
    """The point cards (5, 10, K) each team has won in tricks (RULES §7.1), the reader's
    own team first, with who the defenders are."""
    if not view or view["phase"] not in ("play", "scored", "finished"):
        return []
    mine = engine.team_of(viewer_seat) if viewer_seat is not None else 0
    dealer_team = engine.team_of(view["dealer"]) if view["dealer"] is not None else None
    teams = []
    for team in (mine, 1 - mine):
        cards = view["point_cards"][team]
        teams.append(
            {
                "team": team,
                "mine": viewer_seat is not None and team == mine,
                "defenders": dealer_team is not None and team != dealer_team,
                "cards": faces(cards, ctx),
                "points": engine.points(cards),
            }
        )
    return teams


def _previous_trick(view, ctx, place_of) -> dict | None:
    """The trick just won, laid out like the table's trick: the page holds it in view for a
    moment when the next lead follows at once (a bot), then sweeps it to the winner."""
    last = view.get("last_trick")
    if not last or view["phase"] != "play":
        return None
    return {
        "number": view["tricks_played"],
        "winner_place": place_of[last["winner"]],
        "slots": [
            {"place": place_of[seat], "cards": faces(cards, ctx), "is_winning": seat == last["winner"]}
            for seat, cards in last["plays"]
        ],
    }


def hand_context(view, viewer_seat, ctx=None) -> dict:
    """What the `hand` region needs, and no more: during the deal it is rendered for every
    card a seat receives (games/web/table_consumer.py), hundreds of times a second on a busy server."""
    ctx = ctx or trump_context(view)
    return {
        "view": view,
        "viewer_seat": viewer_seat,
        "my_turn": bool(view) and viewer_seat is not None and view["turn"] == viewer_seat,
        "hand": hand_faces(view, ctx) if view else [],
        "declarations": _declaration_faces(view, ctx),
    }


def _declaration_faces(view, ctx) -> list[list[dict]]:
    return [faces(cards, ctx) for cards in (view or {}).get("can_declare") or ()]


def card_arrival(view, code: str, shown_declarations) -> dict:
    """A dealt card pushed alone to its seat: the card's button and where it goes in the
    sorted hand (RULES §2.6), the seats' card counts, plus the declaration buttons when they changed. Rendering
    the whole hand for each of the ~670 cards a second of 100 dealing tables cost most of
    the deal's CPU (docs/performance.md)."""
    ctx = trump_context(view)
    # "counts": every seat's cards in hand now (public, RULES §9), so the page shows the
    # other seats' counts without knowing the deal order.
    push = {
        "card": code,
        "index": view["hand"].index(code),
        "html": card_button(card_face(code, ctx)),
        "counts": list(view["hand_counts"]),
    }
    if view["can_declare"] != shown_declarations:
        context = {"declarations": _declaration_faces(view, ctx)}
        push["declare"] = render_to_string("games/partials/declare_options.html", context)
    return push


def trump_context(view):
    """Which cards to mark (and sort) as trumps in this view, if any: the engine's answer."""
    return engine.view_context(view)


def _table_trick(view, ctx):
    """The trick on the table: the current one, or — until the next lead — the finished
    one, so every player sees the fourth card land. Also who is (or was) winning it."""
    if not view:
        return [], False, None
    trick = view["trick"]
    if trick:
        return trick, False, engine.trick_winner(trick, ctx)
    last = view.get("last_trick")
    if last and view["phase"] in ("play", "scored", "finished"):
        return last["plays"], True, last["winner"]
    return [], False, None


def _standing(view, names):
    """The standing declaration while trump is not fixed yet (everyone sees it, §3.3)."""
    standing = (view or {}).get("standing")
    if not standing or view.get("trump"):
        return None
    return {
        "name": names[standing["seat"]],
        "symbol": SUITS.get(standing["trump"], ""),
        "no_trump": standing["trump"] == "NT",
        "red": standing["trump"] in ("H", "D"),
    }


def _name(names, seat):
    return names[seat] if seat is not None else ""


def _named(view, names, ctx):
    """Add display names and card faces the templates need (a copy; the view stays as built)."""
    view = dict(view)
    throw = view.get("last_failed_throw")
    if throw:
        view["last_failed_throw"] = dict(
            throw,
            name=names[throw["seat"]],
            attempted_faces=faces(throw["attempted"], ctx),
            forced_faces=faces(throw["forced"], ctx),
            # Announced while its trick is on the table (RULES §5.3: shown to all).
            current=throw.get("trick_no") == view["tricks_played"] + (1 if view["trick"] else 0),
        )
    if view.get("result"):
        result = view["result"]
        view["result"] = dict(
            result,
            next_dealer_name=_name(names, result.get("next_dealer")),
            dealer_name=_name(names, result.get("dealer")),
            kitty_faces=faces(result.get("kitty"), ctx),
            buried_faces=faces(result.get("buried"), ctx),
            bands=score_scale(result["defenders_score"], view.get("rules")),
        )
    return view


def score_scale(score: int, rules_json: dict | None) -> list[dict]:
    """The table's scale of defenders' scores (RULES §7.2, house rule level_steps), each band
    marked `current` when this hand's score falls in it: the result explains itself."""
    rules = engine.Rules.from_json(rules_json) if rules_json else engine.DEFAULT_RULES
    score = max(score, 0)
    bands = engine.score_bands(rules)
    below = [band["low"] for band in bands[1:]] + [None]  # each band ends under the next one's low
    return [
        dict(band, below=end, current=band["low"] <= score and (end is None or score < end))
        for band, end in zip(bands, below, strict=True)
    ]


def _trick_cards(trick, position):
    for seat, cards in trick or ():
        if seat == position:
            return cards
    return []


def _last_trick(view, ctx, names):
    last = view.get("last_trick")
    if not last:
        return None
    return {
        "plays": [{"name": names[seat], "cards": faces(cards, ctx)} for seat, cards in last["plays"]],
        "winner": names[last["winner"]],
        "points": last["points"],
    }


# The regions made by the Jinja2 templates of games/jinja2/games/regions/ (games/jinja_env.py);
# a seat's own hand is the Django partial templates/games/partials/hand.html.
JINJA_REGIONS = {"players": "players", "center": "center", "status": "status"}
SPECTATOR_REGIONS = {**JINJA_REGIONS, "hand": "spectator_hand"}


def render_view(**context_arguments) -> dict[str, str]:
    """A reader's four regions from `table_context`'s arguments, in the active language."""
    return render_regions(table_context(**context_arguments))


def render_regions(context: dict, names=REGIONS) -> dict[str, str]:
    """The regions `names` for the reader `context` was laid out for: the same templates make
    the first page load (games/web/views.py) and every push (games/web/table_consumer.py)."""
    jinja = JINJA_REGIONS if context["viewer_seat"] is not None else SPECTATOR_REGIONS
    in_jinja = [name for name in names if name in jinja]
    made = jinja_env.render_each([f"games/regions/{jinja[name]}.html" for name in in_jinja], context)
    html = dict(zip(in_jinja, made, strict=True))
    return {
        name: html[name] if name in html else render_to_string(f"games/partials/{name}.html", context) for name in names
    }


SHAPES = {
    "single": gettext_lazy("single"),
    "pair": gettext_lazy("pair"),
    "tractor": gettext_lazy("tractor"),
    "throw": gettext_lazy("throw"),
    "mixed": gettext_lazy("mixed suits"),
    "empty": gettext_lazy("nothing selected"),
}


def render_selection(result: dict) -> str:
    """The shape the server sees for the current selection, and why it is not legal."""
    reason = ""
    if not result["legal"] and result.get("reason_template"):
        reason = refusal_sentence(result["reason_template"], result.get("reason_plural"), result.get("params", {}))
    elif not result["legal"]:
        reason = result.get("reason") or ""
    shape = result["shape"]
    if shape in ("throw", "mixed") and not result.get("lead"):
        shape = ""  # a follow of several shapes is no throw: it is judged by the lead (§5.4)
    return render_to_string(
        "games/partials/selection.html",
        {
            "shape": SHAPES.get(shape, shape),
            "length": result.get("length"),
            "legal": result["legal"],
            "reason": reason,
            "rule": None if result["legal"] else result.get("rule"),  # RULES section, e.g. "5.4"
            "is_throw": shape == "throw",
        },
    )
