"""`{{ face|card_name }}`: a card's spoken name (games/words/card_names.py) in templates."""

from django import template

from games.words.card_names import card_name as spoken_name

register = template.Library()


@register.filter
def card_name(face: dict) -> str:
    return spoken_name(face)
