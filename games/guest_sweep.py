"""Guests who never registered are removed after a while (accounts/guests.py), with the tables
they own. A guest-owned table where someone else played too is kept, and so is its owner:
other people's history must not disappear with a guest."""

import logging
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F

from accounts.guests import guests_stale
from games.models import MatchPlayer, Seat, Table

log = logging.getLogger(__name__)


@transaction.atomic
def guests_sweep(*, now: datetime) -> int:
    """Delete the stale guests whose tables only they played at, and those tables (matches,
    hands, replays and chat go with them). Returns how many guests were deleted."""
    stale = set(guests_stale(now=now).values_list("pk", flat=True))
    if not stale:
        return 0
    others_sat = (
        Seat.objects.filter(table__owner__in=stale, user__isnull=False)
        .exclude(user=F("table__owner"))
        .values_list("table__owner", flat=True)
    )
    others_played = (
        MatchPlayer.objects.filter(match__table__owner__in=stale, user__isnull=False)
        .exclude(user=F("match__table__owner"))
        .values_list("match__table__owner", flat=True)
    )
    keep = set(others_sat) | set(others_played)
    if keep:
        log.info("guest sweep: %d stale guests kept: others played at their tables", len(keep))
    doomed = stale - keep
    Table.objects.filter(owner__in=doomed).delete()
    get_user_model().objects.filter(pk__in=doomed).delete()
    return len(doomed)
