"""`{% clock deadline_ms label big %}`: the running countdown of the table's regions in a Django
template (the seat's hand, the hand's result). Its markup is one partial,
games/jinja2/games/partials/clock.html, which the regions include."""

from django import template

from games.jinja_env import render

register = template.Library()


@register.simple_tag
def clock(deadline_ms: int, label: str, big: bool = False) -> str:
    return render("games/partials/clock.html", {"deadline_ms": deadline_ms, "label": label, "big": big})
