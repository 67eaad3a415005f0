"""The garbage collector's policy in the server processes: it keeps CPython's full
collections out of the dealt cards' latency (the full `bench/live.py` measures it: without
this policy a full collection lands inside the deal and the cards' p99 misses its target;
bench/RESULTS.md).

A full collection scans every live object of a busy process, longer than a whole push may
take. What is alive after start-up is nearly all kept for the process's life, so it is left
out of every later scan (`freeze`), and collections run ten times less often.

But cyclic garbage then piles up between the rare full collections (a refused write's
exception and frames in a cycle with asyncio's futures, a hung-up socket's cancelled tasks),
and each new high-water mark leaves the allocator's memory more fragmented. So a thread also
runs a full collection every FULL_COLLECTION_EVERY_S: short, because the frozen start-up
objects are not scanned and the pile is small, and it bounds the garbage by time, not by count.

A full collection of a process with nothing to find still stops it for the whole scan, so
the period adapts: each collection that finds less than WORTH_A_COLLECTION objects doubles
the wait before the next (up to LONGEST_WAIT_S), and one that finds more goes back to the
shortest wait. The first comes FIRST_WAIT_S after start: what start-up made is frozen, and
a restart's storm of handshakes sets off CPython's own full collection. Tables at play
make no cyclic garbage (the engine and the bots make none, tests/engine/test_engine_garbage.py):
their servers pause a few times an hour. Connections that
come and go leave cycles inside daphne and django-redis: those servers keep collecting
every 30 s, and the pile stays bounded by time.
"""

import gc
import logging
import threading
import time

log = logging.getLogger(__name__)
FULL_COLLECTION_EVERY_S = 30.0  # the shortest wait between full collections
FIRST_WAIT_S = 120.0
LONGEST_WAIT_S = 480.0
WORTH_A_COLLECTION = 2_000  # unreachable objects a full collection must find to keep its pace
SLOW_COLLECTION_S = 0.1  # a collection longer than this is worth a line in the log

_collector: threading.Thread | None = None


def install() -> None:
    """Freeze what start-up made, collect rarely, and start the periodic full collection."""
    global _collector
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    if _collector is None:
        _collector = threading.Thread(target=_collect_forever, name="gc-full-collection", daemon=True)
        _collector.start()


def _collect_forever() -> None:
    wait = FIRST_WAIT_S
    while True:
        time.sleep(wait)
        found, _ = collect_once()
        wait = next_wait(wait, found)


def next_wait(wait: float, found: int) -> float:
    """The wait before the next full collection, after one that found `found` objects."""
    if found >= WORTH_A_COLLECTION:
        return FULL_COLLECTION_EVERY_S
    return min(wait * 2, LONGEST_WAIT_S)


def collect_once() -> tuple[int, float]:
    """One full collection: (objects found unreachable, seconds it took)."""
    started = time.perf_counter()
    found = gc.collect()
    took = time.perf_counter() - started
    if took > SLOW_COLLECTION_S:
        log.info("full garbage collection: %d objects in %.0f ms", found, took * 1000)
    return found, took
