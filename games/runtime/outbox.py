"""What a table's moments cause elsewhere, subscribed to rather than called (the outbox).

The write path's records (records.py) append a `DomainEvent` in the table's transaction: a
hand scored, a match ended (won, or aborted), an event's table played its boards. The
events (games/duplicate/) append theirs too: an event finished, a board's result adjusted.
Packages that react to one subscribe by name (`@subscribe(kind, name)`): the players' hand
records (games/history/), the analysis job (games/analysis/), an event's board result and
its round's end (games/duplicate/), the rating updates (games/ratings/). Subscribers import
each other no more than the runtime imports them; `GamesConfig.ready` imports them once.

Once the table's transaction has committed, the writer delivers what it wrote (`deliver`):
each subscriber runs in a transaction of its own that also writes its `Delivery` row, and
the pair (event, subscriber) is unique, so a subscriber has an event once, whoever delivers
it and however often. A delivery cut short (the process killed between the commit and its
subscribers, a subscriber that failed) is finished by `deliver_pending`: the analysis
worker (which every deployment runs) at its start and every few seconds after.
"""

import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timedelta

from django.db import DatabaseError, IntegrityError, close_old_connections, transaction
from django.utils import timezone

from games.models import Delivery, DomainEvent, Hand, Match, Table

log = logging.getLogger(__name__)
Subscriber = Callable[[DomainEvent], None]
SUBSCRIBERS: dict[str, dict[str, Subscriber]] = {kind: {} for kind in DomainEvent.Kind}
# A delivery the writer may still be making is not the sweep's yet.
SWEEP_AFTER = timedelta(seconds=30)

_written: ContextVar[list[int] | None] = ContextVar("outbox_written", default=None)


def subscribe(kind: str, name: str) -> Callable[[Subscriber], Subscriber]:
    """Register `handler` for the events of `kind`, under a name that never changes (it is
    stored with each delivery)."""

    def register(handler: Subscriber) -> Subscriber:
        SUBSCRIBERS[kind][name] = handler
        return handler

    return register


@contextmanager
def collecting() -> Iterator[list[int]]:
    """The events published inside this block (the writer's transaction), to deliver after it."""
    written: list[int] = []
    token = _written.set(written)
    try:
        yield written
    finally:
        _written.reset(token)


def publish(
    *, kind: str, table: Table | None, match: Match | None, hand: Hand | None = None, facts=None, now: datetime
) -> None:
    """Append an event in the caller's transaction (`table` and `match`: None for an
    event's own, games/duplicate/). Inside the write path or a subscriber it is delivered
    once theirs has committed; elsewhere (a moderator's page, a rebuild, a shell) once the
    caller's transaction commits."""
    event = DomainEvent.objects.create(
        kind=kind, table=table, match=match, hand=hand, facts=facts or {}, created_at=now
    )
    written = _written.get()
    if written is None:
        transaction.on_commit(lambda: deliver([event.pk]))
    else:
        written.append(event.pk)


def deliver(event_ids: Iterable[int]) -> None:
    """Give each event to every subscriber that has not had it. Never raises: what fails
    stays pending for `deliver_pending`."""
    try:
        events = DomainEvent.objects.filter(pk__in=list(event_ids), delivered_at__isnull=True).order_by("pk")
        for event in events.select_related("table", "match", "hand"):
            # Every subscriber is tried (a list, not all()'s short cut): one failing stops no other.
            delivered = [_deliver_to(name, handler, event) for name, handler in SUBSCRIBERS[event.kind].items()]
            if all(delivered):
                DomainEvent.objects.filter(pk=event.pk).update(delivered_at=timezone.now())
    except DatabaseError:
        log.exception("delivering domain events %s failed; the sweep will", event_ids)


def deliver_pending(*, older_than: timedelta = SWEEP_AFTER) -> int:
    """Deliver every event still pending that was written more than `older_than` ago."""
    try:
        pending = list(
            DomainEvent.objects.filter(delivered_at__isnull=True, created_at__lte=timezone.now() - older_than)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
    except DatabaseError:
        log.exception("looking for pending domain events failed; the next sweep will")
        return 0
    deliver(pending)
    return len(pending)


def start_sweeper(every_s: float) -> threading.Thread:
    """`deliver_pending` every `every_s` seconds in a thread of this process, until it exits."""

    def sweep() -> None:
        while True:
            time.sleep(every_s)
            deliver_pending()
            close_old_connections()  # a connection the database dropped is not kept

    thread = threading.Thread(target=sweep, name="outbox", daemon=True)
    thread.start()
    return thread


def _deliver_to(name: str, handler: Subscriber, event: DomainEvent) -> bool:
    """One subscriber, once: its work and its Delivery row commit together. False when it
    failed (logged; it is tried again later)."""
    try:
        with collecting() as published, transaction.atomic():
            try:
                with transaction.atomic():
                    Delivery.objects.create(event=event, subscriber=name)
            except IntegrityError:
                return True  # delivered already, by another process or an earlier try
            handler(event)
    except Exception:
        log.exception("subscriber %s failed on domain event %s", name, event.pk)
        return False
    deliver(published)  # what the subscriber published in turn (an event's end), now committed
    return True
