"""The server's full collections adapt their pace to the garbage they find (config/gc_policy.py)."""

from config import gc_policy
from config.gc_policy import FULL_COLLECTION_EVERY_S, LONGEST_WAIT_S, WORTH_A_COLLECTION, next_wait


def test_collections_that_find_little_come_ever_more_rarely_up_to_a_bound():
    waits = [FULL_COLLECTION_EVERY_S]
    for _ in range(8):
        waits.append(next_wait(waits[-1], found=WORTH_A_COLLECTION - 1))
    assert waits[:5] == [30.0, 60.0, 120.0, 240.0, 480.0]
    assert waits[-1] == LONGEST_WAIT_S


def test_a_collection_that_finds_garbage_brings_back_the_shortest_wait():
    assert next_wait(LONGEST_WAIT_S, found=WORTH_A_COLLECTION) == FULL_COLLECTION_EVERY_S
    assert next_wait(FULL_COLLECTION_EVERY_S, found=50_000) == FULL_COLLECTION_EVERY_S


def test_one_collection_reports_what_it_found():
    class Cycle:
        pass

    for _ in range(10):
        a, b = Cycle(), Cycle()
        a.other, b.other = b, a
    del a, b
    found, took = gc_policy.collect_once()
    assert found >= 20
    assert took >= 0


def test_the_server_application_installs_the_policy():
    import gc

    import config.asgi  # noqa: F401  (importing the application installs it)

    assert gc_policy._collector is not None and gc_policy._collector.is_alive()
    assert gc.get_freeze_count() > 0  # what start-up made is left out of later scans
