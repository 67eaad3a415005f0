"""Where bots think: quick levels in a thread of the server, searching levels in a pool of
worker processes that this server process owns (docs/bots.md, "Where bots think").

A decision is a pure function of a `Question` (games/bots/question.py): the table's id and version (the bots seed
their random choices with them), the game as of the moment the step fell due, each seat's
level and the due step. Nothing in it touches the database or Django, so a worker process
only imports the engine and the bots. The answer travels back to the runner task that
asked, which submits it through the one write path with the version it was decided on:
a decision that the table has moved past is refused as stale and changes nothing.

The Hint button's coach (games/bots/coach.py) is the same kind of question — the
seat's Observation, the evaluator's level, budget and seed — and thinks in the same pool.

Why processes and not threads: a strong bot searches for up to BUDGET seconds of pure
Python, and in a thread of the server that holds the GIL against the event loop and the
database thread, so every push of every table waits (the issue's "strong bots must not
slow people down"). The workers run at a lower CPU priority (`nice`), so when the machine
is busy the server processes get the cores first and the bots think more slowly.
"""

import asyncio
import logging
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime

from asgiref.sync import sync_to_async
from django.conf import settings

from games import metrics
from games.bots.coach import Advice, CoachQuestion, advise
from games.bots.question import STAND_IN_LEVEL, Question, Stamp, answer, thinker_start
from games.runtime import clock

log = logging.getLogger(__name__)

# Levels that decide in well under a millisecond (rules of thumb, no search): not worth a
# trip to another process. Every other level (strong, expert, ...) thinks in the pool.
QUICK_LEVELS = frozenset({"random", "novice", "basic"})

_pool: ProcessPoolExecutor | None = None


def question(*, loaded, step_action: dict, now: datetime) -> Question:
    """The question a due bot step asks of the table as `loaded` (read-only: its actor's, games/runtime/table_state.py)."""
    table = loaded.table
    levels = tuple(seat.bot or (STAND_IN_LEVEL if seat.autoplay else "") for seat in loaded.seats)
    return Question(Stamp(table.pk, table.version), clock.live(table, loaded.game, now), levels, dict(step_action))


def pooled(q: Question) -> bool:
    """Whether this question goes to the worker processes."""
    return settings.GAMES_BOT_THINKERS > 0 and not q.thinkers <= QUICK_LEVELS


async def decide(q: Question) -> dict | None:
    """The answer to `q`, thought out of this process's threads when the level searches."""
    if q.thinkers <= QUICK_LEVELS:
        # Well under a millisecond: on the event loop. A hand-off to a thread and back cost
        # a third as much as the decision itself, and the GIL allows nothing to run beside it.
        return _answer_here(q)
    if not pooled(q):  # GAMES_BOT_THINKERS=0: a searching level thinks in a thread
        return await sync_to_async(_answer_here, thread_sensitive=False)(q)
    try:
        return await asyncio.get_running_loop().run_in_executor(_executor(), answer, q)
    except BrokenProcessPool:
        # A worker died (killed, out of memory): start a fresh pool next time. This step
        # falls back to a thread so that the table moves on.
        log.warning("a bot thinker process died; starting a new pool")
        _discard()
        return await sync_to_async(_answer_here, thread_sensitive=False)(q)


async def coach(q: CoachQuestion) -> Advice:
    """The Hint's advice (games/bots/coach.py): the analysis's evaluator, a search of a
    few hundred milliseconds, so it is thought where the searching bots think — in the pool,
    or in a thread when there is none — never on the event loop."""
    if settings.GAMES_BOT_THINKERS <= 0:
        return await sync_to_async(advise, thread_sensitive=False)(q)
    try:
        return await asyncio.get_running_loop().run_in_executor(_executor(), advise, q)
    except BrokenProcessPool:
        log.warning("a bot thinker process died; starting a new pool")
        _discard()
        return await sync_to_async(advise, thread_sensitive=False)(q)


def _answer_here(q: Question) -> dict | None:
    """`answer` in this thread, its CPU counted (games/metrics.py): the bots' own share of
    the server's CPU, reported apart from the cost of an action (docs/performance.md)."""
    started = time.thread_time()
    move = answer(q)
    level = "+".join(sorted(q.thinkers)) or "none"
    metrics.BOT_DECISION_CPU.labels(level).inc(time.thread_time() - started)
    metrics.BOT_DECISIONS.labels(level).inc()
    return move


def _executor() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        # forkserver: a clean process to fork workers from (forking the server itself would
        # copy its threads' locks and its sockets); it preloads the bots once.
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["games.bots.question", "games.bots.coach"])
        _pool = ProcessPoolExecutor(
            max_workers=settings.GAMES_BOT_THINKERS,
            mp_context=context,
            initializer=thinker_start,
            initargs=(settings.GAMES_BOT_THINKER_NICE, os.getpid()),
        )
    return _pool


def _discard() -> None:
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
    _pool = None


def shutdown() -> None:
    """Stop the workers (tests; the interpreter's exit does it for a server)."""
    _discard()
