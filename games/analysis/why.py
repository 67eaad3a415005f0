"""The Hint's "Why?": one or two sentences built from the facts of the suggested play
(games/bots/play_facts.py) — what it wins or saves, what it risks — in the reader's
language (call it inside `translation.override`). The first sentence says what the play
does in this trick; the second what is at stake beyond it (the last trick's kitty, the
bury's points) or what the evaluator expects of it against the next best option."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games import engine

SUIT_SYMBOLS = engine.SUIT_SYMBOLS


def explain(facts: dict) -> str:
    kind = facts["kind"]
    if kind == "bury":
        return f"{_bury(facts)} {_bury_risk(facts)}"
    if facts["forced"]:
        return _("It is your only legal play.")
    cards = card_labels(facts["cards"])
    first = _lead(facts, cards) if kind == "lead" else _follow(facts, cards)
    return f"{first} {_stakes(facts)}"


def card_labels(cards: list[str]) -> str:
    """♠A ♥10 big joker: short enough for a sentence (the screen reader reads the symbols)."""
    out = []
    for code in cards:
        if code == "BJK":
            out.append(pgettext("in a sentence", "the big joker"))
        elif code == "SJK":
            out.append(pgettext("in a sentence", "the small joker"))
        else:
            out.append(SUIT_SYMBOLS[code[0]] + code[1:])
    return " ".join(out)


def _lead(f: dict, cards: str) -> str:
    points = f["points"]
    if f["shape"] == "throw":
        if f["safe"]:
            return _("Throw %(cards)s: every part is the highest left in its suit, so the throw cannot fail.") % {
                "cards": cards
            }
        return _("Throw %(cards)s: if another player can beat a part of it, the throw fails and costs points.") % {
            "cards": cards
        }
    if f["safe"]:
        if points:
            return _("Lead %(cards)s: no opponent can beat it, so its %(points)s points are safe.") % {
                "cards": cards,
                "points": points,
            }
        return _("Lead %(cards)s: from the cards still out and the voids shown, no opponent can beat it.") % {
            "cards": cards
        }
    if f["trump"]:
        return _("Lead %(cards)s: it draws the opponents' trumps, so they cannot ruff your side's suits later.") % {
            "cards": cards
        }
    if points:
        return _("Lead %(cards)s: an opponent may beat it and take its %(points)s points.") % {
            "cards": cards,
            "points": points,
        }
    return _("Lead %(cards)s: an opponent may beat it, but it gives away no points.") % {"cards": cards}


def _follow(f: dict, cards: str) -> str:
    values = {"cards": cards, "points": f["points"], "trick": f["trick_points"]}
    if f["wins"]:
        if f["kind"] == "ruff":
            if f["safe"]:
                return (
                    _("Ruff with %(cards)s: it takes this trick's %(trick)s points, and nobody after you can beat it.")
                    % values
                )
            return (
                _("Ruff with %(cards)s for this trick's %(trick)s points: an opponent after you may still over-ruff.")
                % values
            )
        if not f["safe"]:
            if f["trick_points"]:
                return (
                    _(
                        "Play %(cards)s to take the lead of this trick and its %(trick)s points for now: an opponent after you may still beat it."
                    )
                    % values
                )
            return (
                _("Play %(cards)s to take the lead of this trick for now: an opponent after you may still beat it.")
                % values
            )
        if f["trick_points"]:
            return (
                _("Play %(cards)s to win this trick: nobody after you can beat it, and it brings in %(trick)s points.")
                % values
            )
        return _("Play %(cards)s to win this trick: nobody after you can beat it, and you lead next.") % values
    if f["ours"]:
        if not f["points"]:
            return _("Play low with %(cards)s: your partner is already winning this trick.") % values
        if f["safe"]:
            return _("Your partner wins this trick: %(cards)s adds %(points)s points to your side.") % values
        return (
            _(
                "Your partner is winning this trick for now: %(cards)s adds %(points)s points, though an opponent after you may still beat it."
            )
            % values
        )
    if f["points"]:
        return _("The opponents are winning this trick: %(cards)s gives them %(points)s points.") % values
    if f["keeps_pairs"]:
        return (
            _("The opponents are winning this trick: %(cards)s gives them no points and keeps your pairs whole.")
            % values
        )
    return _("The opponents are winning this trick: %(cards)s gives them no points.") % values


def _stakes(f: dict) -> str:
    if f["last_trick"]:
        return _("This is the last trick: if the defenders win it, the kitty's points count for them, multiplied.")
    if f["margin"] is None:  # the evaluator saw no other option worth weighing
        return _("The coach expects your side to end the hand with about %(expected)s points this way.") % {
            "expected": round(f["expected"])
        }
    values = {"expected": round(f["expected"]), "margin": round(f["margin"])}
    if f["margin"] >= 1:
        return (
            _(
                "The coach expects your side to end the hand with about %(expected)s points this way, %(margin)s more than with the next best play."
            )
            % values
        )
    return (
        _(
            "The coach expects your side to end the hand with about %(expected)s points this way; the next best play comes within a point."
        )
        % values
    )


def _bury(f: dict) -> str:
    if f["voids"]:
        suits = pgettext("list separator", ", ").join(SUIT_SYMBOLS[s] for s in f["voids"])
        return ngettext(
            "Bury these 8: it leaves you with no %(suits)s, so you can ruff it when it is led.",
            "Bury these 8: it leaves you with no %(suits)s, so you can ruff them when they are led.",
            len(f["voids"]),
        ) % {"suits": suits}
    if not f["trumps"]:
        if not f["breaks_pair"]:
            return _("Bury these 8: it keeps all your trumps and pairs.")
        return _("Bury these 8: it keeps all your trumps.")
    return _("Bury these 8: the coach expects your side to end the hand with about %(expected)s points this way.") % {
        "expected": round(f["expected"])
    }


def _bury_risk(f: dict) -> str:
    if f["points"]:
        return _(
            "The risk: if the defenders win the last trick, these %(points)s points count for them, multiplied."
        ) % {"points": f["points"]}
    return _("They hold no points, so the defenders gain nothing from them even if they win the last trick.")
