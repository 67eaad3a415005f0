"""The background task and its queue (Django's tasks framework; the queue is
django-tasks-db's table in the site's database).

`hand_analysis_queue` runs when a hand is scored (a subscriber of the table's "hand scored",
games/runtime/outbox.py, after the score has committed): the HandAnalysis row commits with
its delivery, and the task is enqueued only once both are committed (`transaction.on_commit`),
so the worker never looks for an analysis that is not there.
The worker is `manage.py analysis_worker` (a `db_worker` on the "analysis" queue at a lower
CPU priority), started by .ci/serve and by the production stack. docs/analysis.md.
"""

from django.conf import settings
from django.db import transaction
from django.tasks import task
from django_tasks_db.models import DBTaskResult

from games.analysis import service
from games.analysis.models import HandAnalysis
from games.bots import coach
from games.models import DomainEvent, Hand
from games.runtime.outbox import subscribe

QUEUE = "analysis"


@task(queue_name=QUEUE)
def analyse_hand(hand_id: int) -> dict:
    analysis = service.hand_analyse(hand_id=hand_id)
    if analysis is None:
        return {"hand": hand_id, "status": "gone"}
    return {"hand": hand_id, "status": analysis.status, "seconds": analysis.seconds}


@subscribe(DomainEvent.Kind.HAND_SCORED, "analysis.queue")
def on_hand_scored(event: DomainEvent) -> None:
    hand_analysis_queue(hand=event.scored_hand())


def hand_analysis_queue(*, hand: Hand) -> HandAnalysis | None:
    """Queue the analysis of `hand` (just scored) when a person played in its match."""
    if not settings.GAMES_ANALYSIS or not hand.match.seating.filter(user__isnull=False).exists():
        return None
    analysis, _ = HandAnalysis.objects.update_or_create(
        hand=hand,
        defaults={
            "status": HandAnalysis.Status.QUEUED,
            "level": settings.GAMES_ANALYSIS_LEVEL,
            "budget": settings.GAMES_ANALYSIS_BUDGET,
            "seed": coach.hand_seed(hand.pk),  # public, as the Hint's (never the deck's seed)
        },
    )
    transaction.on_commit(lambda: analysis_enqueue(hand_id=hand.pk))
    return analysis


def analysis_enqueue(*, hand_id: int) -> None:
    analyse_hand.enqueue(hand_id)


def analyses_requeue() -> int:
    """Enqueue every analysis still queued with no task waiting for it (a worker killed in
    the middle of one, or an enqueue lost): the worker calls it when it starts."""
    waiting = {
        tuple(row.get("args") or ())
        for row in DBTaskResult.objects.ready()
        .filter(task_path=analyse_hand.module_path)
        .values_list("args_kwargs", flat=True)
    }
    count = 0
    for hand_id in HandAnalysis.objects.filter(status=HandAnalysis.Status.QUEUED).values_list("hand_id", flat=True):
        if (hand_id,) not in waiting:
            analyse_hand.enqueue(hand_id)
            count += 1
    return count
