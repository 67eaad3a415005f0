"""What the history templates need: a replay frame laid out for the page, and the one
translated sentence that says what happened in that step."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import engine
from games.words.faces import SUITS, card_face, faces

# Seat 0 at the bottom, then counter-clockwise as at the table (RULES §1.1).
PLACES = {0: "bottom", 1: "right", 2: "top", 3: "left"}


def trump_label(trump: str | None) -> str:
    if not trump:
        return ""
    return _("no-trump") if trump == "NT" else SUITS.get(trump, trump)


def describe(frame, names: list[str]) -> str:
    """One sentence for a step (the cards it is about are shown next to it)."""
    info, name = frame.info, (names[frame.seat] if frame.seat is not None else "")
    kind = frame.kind
    if kind == "hand_started":
        if frame.seat is None:
            return _("Hand %(n)s begins at level %(level)s; the first player to declare becomes the dealer.") % {
                "n": info["hand_no"],
                "level": info["level"],
            }
        return _("Hand %(n)s begins at level %(level)s; %(dealer)s deals.") % {
            "n": info["hand_no"],
            "level": info["level"],
            "dealer": name,
        }
    if kind == "card_dealt":
        return _("Card %(n)s of 100 goes to %(name)s.") % {"n": info["n"], "name": name}
    if kind == "declared":
        if info.get("reinforce"):
            return _("%(name)s reinforces the declaration:") % {"name": name}
        if info.get("overridden") is not None:
            return _("%(name)s overrides %(other)s's declaration, trump %(trump)s:") % {
                "name": name,
                "other": names[info["overridden"]],
                "trump": trump_label(info["trump"]),
            }
        return _("%(name)s declares trump %(trump)s:") % {"name": name, "trump": trump_label(info["trump"])}
    if kind == "flipped":
        return _("Nobody declared: the kitty's fourth card is turned up:")
    if kind == "redealt":
        return _("Nobody declared: the hand is dealt again (house rule).")
    if kind == "trump_fixed":
        return _("Trump is %(trump)s. %(dealer)s, the dealer, picks up the kitty:") % {
            "trump": trump_label(info["trump"]),
            "dealer": name,
        }
    if kind == "buried":
        return _("%(dealer)s buries:") % {"dealer": name}
    if kind == "played":
        failed = info.get("failed_throw")
        if failed:
            return ngettext(
                "%(name)s's throw failed (penalty %(penalty)s point) and must lead:",
                "%(name)s's throw failed (penalty %(penalty)s points) and must lead:",
                failed["penalty"],
            ) % {"name": name, "penalty": failed["penalty"]}
        return _("%(name)s plays:") % {"name": name}
    if kind == "trick_won":
        return ngettext(
            "%(name)s wins trick %(n)s (%(points)s point).",
            "%(name)s wins trick %(n)s (%(points)s points).",
            info["points"],
        ) % {"name": name, "n": info["trick_no"], "points": info["points"]}
    if kind == "hand_scored":
        return _("The hand is over: the defenders score %(score)s.") % {"score": info["result"]["defenders_score"]}
    return kind


def frame_context(frame, names: list[str]) -> dict:
    """The board of one replay step: all four hands, the trick, the kitty and the score."""
    view = frame.view
    ctx = engine.view_context(view)
    trick = {seat: cards for seat, cards in view["trick"]}
    seats = []
    for seat in range(4):
        seats.append(
            {
                "position": seat,
                "place": PLACES[seat],
                "name": names[seat],
                "team": engine.team_of(seat),
                "is_dealer": view["dealer"] == seat,
                "is_turn": view["turn"] == seat,
                "hand": faces(view["hands"][str(seat)], ctx),
                "declared": faces(view["declaration_areas"][str(seat)], ctx),
                "played": faces(trick.get(seat), ctx),
                "acting": frame.seat == seat,
            }
        )
    result = view.get("result") if frame.kind == "hand_scored" else None
    if result:
        result = dict(
            result, next_dealer_name=names[result["next_dealer"]] if result["next_dealer"] is not None else ""
        )
    return {
        "frame": frame,
        "view": view,
        "seats": seats,
        "sentence": describe(frame, names),
        "cards": faces(frame.cards, ctx),
        "failed_throw": frame.info.get("failed_throw"),
        "trump": trump_label(view.get("trump")),
        "standing_trump": trump_label((view.get("standing") or {}).get("trump")) if not view.get("trump") else "",
        "flipped": card_face(view["flipped"], ctx) if view.get("flipped") else None,
        "kitty": faces(view.get("kitty_original"), ctx),
        "buried": faces(view.get("buried"), ctx),
        "result": result,
        "match_winner": frame.info.get("match_winner"),
    }
