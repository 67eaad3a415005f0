"""What the replay and match pages show of the analyses, and to whom (docs/analysis.md).

Who: the analysis of a hand at a public table is there for everyone who may open its
replay; at a private table only for the match's players and moderators. What: a replay
shows every hand face up (it exists only for finished hands, docs/history.md), so each
seat's analysis — computed from that seat's own view at the time — reveals nothing the
replay does not already show to the same reader.
"""

from accounts.selectors import user_can_moderate
from games.analysis.models import Decision, HandAnalysis
from games.bots import coach
from games.models import Hand, Match

MISTAKES_SHOWN = 3  # a seat's costliest mistakes marked in the replay


def analysis_access(*, match: Match, user) -> bool:
    """May `user` (who may already see the match, games.history.matches.match_access) see
    its analyses? Private tables: only the match's players and moderators."""
    if not match.table.is_private:
        return True
    return user_can_moderate(user) or match.seating.filter(user=user).exists()


def hand_analysis(*, hand: Hand) -> dict | None:
    """The replay's analysis of `hand`: {"status", "by_index": {action index: Decision},
    "mistakes": {seat: [Decision, …] costliest first}, "seats": per-seat summary}, or None
    when the hand was never queued (a match of bots, or played before analyses existed)."""
    analysis = HandAnalysis.objects.filter(hand=hand).first()
    if analysis is None:
        return None
    out: dict = {"status": analysis.status, "by_index": {}, "mistakes": {}, "seats": analysis.seats}
    if analysis.status != HandAnalysis.Status.DONE:
        return out
    rows = list(analysis.decisions.all())
    out["by_index"] = {d.index: d for d in rows}
    for seat in sorted({d.seat for d in rows}):
        costly = sorted((d for d in rows if d.seat == seat and d.lost > 0), key=lambda d: (-d.lost, d.index))
        out["mistakes"][seat] = costly[:MISTAKES_SHOWN]
    return out


def is_marked(decision: Decision, analysis: dict) -> bool:
    return any(d.pk == decision.pk for d in analysis["mistakes"].get(decision.seat, []))


def match_accuracy(*, match: Match) -> dict[int, dict[str, dict]]:
    """{hand id: {seat "0".."3": {"accuracy", "lost", "decisions"}}} of the match's analysed hands."""
    rows = HandAnalysis.objects.filter(hand__match=match, status=HandAnalysis.Status.DONE).values_list(
        "hand_id", "seats"
    )
    return dict(rows)


def hand_coach_seed(*, table_id: int, hand_no: int) -> str:
    """The coach's seed (coach.hand_seed) of hand `hand_no` of the match being played at
    the table: the one its analysis will use. A state with no hand record (tests that store
    a position directly) gets a seed of its own."""
    hand_id = (
        Hand.objects.filter(match__table_id=table_id, number=hand_no)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
    )
    return coach.hand_seed(hand_id) if hand_id is not None else f"table:{table_id}:{hand_no}"
