"""The analysis as the replay page lays it out (games/web/history_views.py `hand_replay`)."""

from games import engine
from games.analysis.selectors import is_marked
from games.words.faces import faces


def replay_analysis(analysis: dict | None, frames, names: list[str], step: int, mine: set[int]) -> dict:
    """The replay's analysis (docs/analysis.md): the decision this step shows, and each
    analysed seat's costliest mistakes with the step of each (the viewer's own first)."""
    if analysis is None:
        return {}
    ctx = engine.view_context(frames[-1].view)  # trump is fixed by the hand's end
    first_step: dict[int, int] = {}
    for index, frame in enumerate(frames):
        if frame.kind in ("played", "buried") and frame.action is not None:
            first_step.setdefault(frame.action, index)
    frame = frames[step]
    decision = analysis["by_index"].get(frame.action) if frame.kind in ("played", "buried") else None
    return {
        "analysis_status": analysis["status"],
        "decision": _decision_row(decision, names, analysis, first_step, mine, ctx) if decision else None,
        "mistakes": [
            {
                "name": names[seat],
                "mine": seat in mine,
                "accuracy": analysis["seats"].get(str(seat), {}).get("accuracy"),
                "rows": [_decision_row(d, names, analysis, first_step, mine, ctx) for d in rows],
            }
            for seat, rows in sorted(analysis["mistakes"].items(), key=lambda item: (item[0] not in mine, item[0]))
        ],
    }


def _decision_row(decision, names, analysis, first_step, mine, ctx) -> dict:
    return {
        "name": names[decision.seat],
        "mine": decision.seat in mine,
        "kind": decision.get_kind_display(),
        "played": faces(decision.played, ctx),
        "suggested": faces(decision.suggested, ctx),
        "same": sorted(decision.played) == sorted(decision.suggested),
        "played_points": round(decision.played_points),
        "suggested_points": round(decision.suggested_points),
        "lost": round(decision.lost, 1),
        "marked": is_marked(decision, analysis),
        "step": first_step.get(decision.index),
    }
