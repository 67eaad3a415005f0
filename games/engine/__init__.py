"""The rules engine of Double Up (双升): pure Python, no Django.

Implements ../shared/RULES.md. See docs/engine.md. Public API is re-exported here.
"""
from .actions import ACTION_TYPES, apply, check_play
from .advice import classify, legal_declarations, legal_plays, sample_play
from .cards import CODES, JOKERS, RANKS, SUITS, full_deck, points
from .declare import check_declaration, declaration_of
from .errors import Refusal
from .follow import is_legal_follow
from .game import Game
from .order import TRUMP_CLASS, TrumpContext, context, sort_cards
from .scoring import hand_outcome, kitty_bonus, kitty_multiplier, level_change
from .shapes import Component, requirements, shape_of, split
from .tricks import check_throw, trick_points, trick_winner
from .views import view

__all__ = [
    "ACTION_TYPES", "CODES", "Component", "Game", "JOKERS", "RANKS", "Refusal", "SUITS", "TRUMP_CLASS",
    "TrumpContext", "apply", "check_declaration", "check_play", "check_throw", "classify",
    "context", "declaration_of", "full_deck", "hand_outcome", "is_legal_follow",
    "kitty_bonus", "kitty_multiplier", "legal_declarations", "legal_plays", "level_change",
    "points", "requirements", "sample_play", "shape_of", "sort_cards", "split",
    "trick_points", "trick_winner", "view",
]
