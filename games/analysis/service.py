"""Writes of the analysis (STYLE: services): `hand_analyse` analyses a queued hand and
stores its decisions; the worker runs it (games/analysis/tasks.py queues it)."""

import logging
import time

from django.db import transaction
from django.utils import timezone

from games import selectors
from games.analysis.decisions import LoggedAction, hand_decisions, seat_summary
from games.analysis.models import Decision, HandAnalysis

logger = logging.getLogger(__name__)


def hand_analyse(*, hand_id: int) -> HandAnalysis | None:
    """Analyse the hand and store its decisions (again, if it was analysed before: the
    result is the same for the same seed, level and budget). None if the hand is gone."""
    analysis = HandAnalysis.objects.select_related("hand__match").filter(hand_id=hand_id).first()
    if analysis is None:
        return None
    hand = analysis.hand
    started = time.perf_counter()
    try:
        before, own = selectors.hand_log(hand)
        results = hand_decisions(
            [action for _, _, action in before],
            [LoggedAction(seq, source, action) for seq, source, action in own],
            rules=hand.game_rules(),
            seed=analysis.seed,
            level=analysis.level,
            budget=analysis.budget,
        )
    except Exception as error:  # a broken log must not make the worker retry forever
        logger.exception("analysis of hand %s failed", hand_id)
        analysis.status, analysis.error = HandAnalysis.Status.FAILED, str(error)[:300]
        analysis.finished_at = timezone.now()
        analysis.save(update_fields=["status", "error", "finished_at"])
        raise
    with transaction.atomic():
        analysis.decisions.all().delete()
        Decision.objects.bulk_create(
            Decision(analysis=analysis, **{name: getattr(r, name) for name in DECISION_FIELDS}) for r in results
        )
        analysis.seats = seat_summary(results)
        analysis.status, analysis.error = HandAnalysis.Status.DONE, ""
        analysis.seconds = round(time.perf_counter() - started, 3)
        analysis.finished_at = timezone.now()
        analysis.save()
    return analysis


DECISION_FIELDS = (
    "seat",
    "index",
    "seq",
    "kind",
    "played",
    "played_points",
    "suggested",
    "suggested_points",
    "lost",
    "options",
)
