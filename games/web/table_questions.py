"""Questions a seated player asks that change nothing: what the selected cards make (the
selection's legality) and the coach's hint.

The hint is the coach's play for this seat and why: the Hint and Why? buttons of casual
tables. The coach is the analysis's evaluator with its budget and seed
(games/bots/coach.py, docs/analysis.md), so a followed hint is never marked a mistake
afterwards; it sees only this seat's Observation (RULES §9) and thinks where the searching
bots think (games/runtime/thinking.py), never on the event loop.
"""

import json

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext_noop

from games import bots, engine, selectors
from games.analysis.selectors import hand_coach_seed
from games.analysis.why import explain
from games.bots.coach import CoachQuestion
from games.engine import Refusal
from games.runtime import clock, thinking
from games.runtime.table_state import LoadedTable
from games.web import rendering


def selection(loaded: LoadedTable | None, user, cards: list, language: str) -> dict:
    """The "selection" message: the cards' combination as the page shows it, and whether
    playing them is legal now."""
    seat = selectors.seat_of(loaded.seats, user) if loaded else None
    if loaded is None or seat is None or loaded.game is None:
        return {"type": "selection", "html": "", "legal": False}
    game = clock.live(loaded.table, loaded.game, timezone.now())
    result = engine.classify(game, seat, cards)
    with translation.override(language):
        html = rendering.render_selection(result)
    return {"type": "selection", "html": html, "legal": bool(result["legal"])}


class Hints:
    """One socket's hints: one at a time (None while one is being thought out), and asked
    again at the same version, the same answer."""

    def __init__(self) -> None:
        self.thinking = False
        self.last: tuple[int, str] | None = None  # (version, the hint message) last given

    async def ask(self, loaded: LoadedTable | None, user, language: str) -> str | None:
        """The hint message (JSON) for `user`'s seat at `loaded`; a Refusal says why there is none."""
        if self.thinking:
            return None
        self.thinking = True
        try:
            if self.last and loaded is not None and self.last[0] == loaded.version:
                return self.last[1]
            obs = _hint_view(loaded, user)
            assert loaded is not None  # (_hint_view refused otherwise)
            seed = await database_sync_to_async(hand_coach_seed)(table_id=loaded.table.pk, hand_no=obs.hand_no)
            level, budget = settings.GAMES_ANALYSIS_LEVEL, settings.GAMES_ANALYSIS_BUDGET
            advice = await thinking.coach(CoachQuestion(obs, level, budget, seed))
            with translation.override(language):
                why = explain(advice.facts)
            message = json.dumps({"type": "hint", "version": loaded.version, "cards": advice.cards, "why": why})
            self.last = (loaded.version, message)
            return message
        finally:
            self.thinking = False


def _hint_view(loaded: LoadedTable | None, user) -> bots.Observation:
    """What this seat sees, for the coach, or a Refusal saying why there is no hint."""
    if loaded is not None and not rendering.hints_allowed(loaded.table):
        # Said first: at a rated table the answer is never "wait for your turn".
        raise Refusal("hints_off", gettext_noop("Hints are only available at casual tables."))
    seat = selectors.seat_of(loaded.seats, user) if loaded else None
    game = loaded.game if loaded else None
    if seat is None or game is None or game.phase not in ("bury", "play") or game.turn != seat:
        raise Refusal("no_hint", gettext_noop("No hint now: it is not your turn to play or bury."))
    return bots.observe(game, seat)
