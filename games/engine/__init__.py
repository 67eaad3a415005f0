"""The rules engine of Double Up (双升): pure Python, no Django.

Implements ../shared/RULES.md. See docs/engine.md. Public API is re-exported here.
"""

from .actions import ACTION_TYPES, apply, check_play, step
from .advice import (
    classify,
    forced_play,
    lead_components,
    legal_declarations,
    legal_follows,
    legal_plays,
    sample_hand_play,
    sample_play,
)
from .cards import CODES, DEALT_CARDS, JOKERS, KITTY_SIZE, RANKS, SUIT_SYMBOLS, SUITS, full_deck, points, shuffled_deck
from .declare import check_declaration, declaration_of
from .errors import Refusal
from .follow import is_legal_follow, lead_refusal
from .game import START_LEVELS, Game, deal_receiver
from .log import ReplayError, apply_logged, fold
from .order import TRUMP_CLASS, TrumpContext, context, sort_cards, standing_context
from .rules import (
    CUSTOM,
    DEFAULT_RULES,
    OPTIONS,
    PRESETS,
    RATEABLE,
    Rules,
    check_rules,
    conflicts,
    is_rateable,
    preset_of,
    preset_rules,
)
from .scoring import (
    HandResult,
    hand_outcome,
    hand_score,
    is_defender,
    kitty_bonus,
    kitty_multiplier,
    level_change,
    penalty_delta,
    score_bands,
    throw_penalty,
)
from .seats import next_seat, partner_of, same_team, team_of
from .shapes import Component, requirements, shape_of, split
from .simulate import Playout
from .tricks import check_throw, trick_points, trick_winner
from .views import view, view_context

__all__ = [
    "ACTION_TYPES",
    "CODES",
    "CUSTOM",
    "DEALT_CARDS",
    "DEFAULT_RULES",
    "JOKERS",
    "KITTY_SIZE",
    "OPTIONS",
    "PRESETS",
    "RANKS",
    "RATEABLE",
    "START_LEVELS",
    "SUITS",
    "SUIT_SYMBOLS",
    "TRUMP_CLASS",
    "Component",
    "Game",
    "HandResult",
    "Playout",
    "Refusal",
    "ReplayError",
    "Rules",
    "TrumpContext",
    "apply",
    "apply_logged",
    "check_declaration",
    "check_play",
    "check_rules",
    "check_throw",
    "classify",
    "conflicts",
    "context",
    "deal_receiver",
    "declaration_of",
    "fold",
    "forced_play",
    "full_deck",
    "hand_outcome",
    "hand_score",
    "is_defender",
    "is_legal_follow",
    "is_rateable",
    "kitty_bonus",
    "kitty_multiplier",
    "lead_components",
    "lead_refusal",
    "legal_declarations",
    "legal_follows",
    "legal_plays",
    "level_change",
    "next_seat",
    "partner_of",
    "penalty_delta",
    "points",
    "preset_of",
    "preset_rules",
    "requirements",
    "same_team",
    "sample_hand_play",
    "sample_play",
    "score_bands",
    "shape_of",
    "shuffled_deck",
    "sort_cards",
    "split",
    "standing_context",
    "step",
    "team_of",
    "throw_penalty",
    "trick_points",
    "trick_winner",
    "view",
    "view_context",
]
