"""Moderators void a rated match (docs/ratings.md, docs/moderation.md): its rating
changes are dropped and every rating since is replayed from the history without it, in
one transaction with the audit log entry (games/staff_log.py).

Not a table command: a match's table may be closed (nothing acts on a closed table), and
voiding changes the rating history, not the table."""

from django.db import transaction
from django.utils.translation import gettext_noop

from games.engine import Refusal
from games.models import Match
from games.moderation.models import ModerationLog
from games.ratings.models import RatedMatch
from games.ratings.service import ratings_replay
from games.staff_log import moderation_log_write, moderator_check, reason_check


@transaction.atomic
def match_void(*, moderator, match_id: int, reason: str) -> RatedMatch:
    moderator_check(moderator)
    reason = reason_check(reason)
    entry = RatedMatch.objects.select_for_update().select_related("match__table").filter(match_id=match_id).first()
    if entry is None:
        if not Match.objects.filter(pk=match_id).exists():
            raise Refusal("no_match", gettext_noop("No such match."))
        raise Refusal("not_rated", gettext_noop("This match did not change any rating."))
    if entry.voided:
        raise Refusal("already_voided", gettext_noop("This match is already void."))
    entry.voided = True
    entry.save(update_fields=["voided"])
    replayed = ratings_replay(since=entry)
    assert entry.match is not None  # found by its match
    moderation_log_write(
        moderator=moderator,
        action=ModerationLog.Action.VOID_MATCH,
        reason=reason,
        table=entry.match.table,
        details={"match_id": match_id, "rated_matches_replayed": replayed},
    )
    return entry
