"""A bot decision as a question with an answer: what the server's bot thinker processes
receive and compute (games/runtime/thinking.py). Pure like the rest of games/bots (no
Django), so a worker process imports only the engine and the bots."""

import os
import select
import signal
import threading
from dataclasses import dataclass
from typing import Any

from games import bots, engine

STAND_IN_LEVEL = "basic"  # plays for a person who timed out (games/runtime/play.py `time_out`)


@dataclass(frozen=True)
class Stamp:
    """What `choose` reads of a table: its id and version (bots.TableStamp)."""

    pk: int
    version: int


@dataclass(frozen=True)
class Question:
    table: Stamp
    game: engine.Game  # as of the moment the step fell due
    levels: tuple[str, ...]  # per seat: the level that plays it, "" for a person who plays
    step: dict[str, Any]  # the due bot step: {"type": "bot_move" | "time_out", "seat"} or {"type": "bot_declare"}

    @property
    def thinkers(self) -> set[str]:
        """The levels that will think about this step."""
        if self.step["type"] == "bot_declare":
            return {level for level in self.levels if level}
        return {self.levels[self.step["seat"]] or STAND_IN_LEVEL}


def answer(q: Question) -> dict[str, Any] | None:
    """The bot's move. For `bot_declare` the first bot (or stand-in) seat that declares
    now, or None when none does."""
    if q.step["type"] == "bot_declare":
        for position, level in enumerate(q.levels):
            if level:
                move = bots.declaration(game=q.game, seat=position, level=level)
                if move is not None:
                    return move
        return None
    seat = q.step["seat"]
    return bots.choose(table=q.table, game=q.game, seat=seat, level=q.levels[seat] or STAND_IN_LEVEL)


def thinker_start(nice: int, server_pid: int) -> None:
    """A thinker process's first step (ProcessPoolExecutor initializer)."""
    os.nice(nice)  # the server's event loop and database thread get the cores first
    # Ctrl-C reaches the whole process group: the server stops its thinkers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # ...unless it is killed outright (SIGKILL, out of memory): then nobody tells the pool to
    # stop, and its workers (children of the forkserver, not of the server) would wait for
    # questions forever. Each watches its server and leaves with it.
    threading.Thread(target=_leave_with, args=(server_pid,), daemon=True, name="leave-with-server").start()


def _leave_with(server_pid: int) -> None:
    try:
        watched = os.pidfd_open(server_pid)
    except ProcessLookupError:
        os._exit(0)
    select.select([watched], [], [])  # readable once the server has exited
    os._exit(0)
