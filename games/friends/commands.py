"""Accepting an invitation: a command of the table's one write path (docs/friends.md).

In the write path's transaction: the invitation must be the user's, pending, unexpired and for
this table, the match not started, and a seat free (the one offered, else another). The
user is seated and the invitation marked accepted in the same transaction.
"""

from datetime import datetime

from django.utils.translation import gettext_noop

from games import engine, events
from games.engine import Refusal
from games.friends.models import Invitation
from games.models import Seat, Table
from games.runtime.commands import Applied, Issuer, Role, command
from games.sanctions import is_banned, is_kicked
from games.selectors import seat_for


@command("accept_invitation", may={Role.SIGNED_IN}, lobby_visible=True)
def accept_invitation(
    *, table: Table, seats: list[Seat], game: engine.Game | None, action: dict, user, issuer: Issuer, now: datetime
) -> list[Applied]:
    invitation_id = action.get("invitation")
    invitation = (
        Invitation.objects.select_for_update()
        .filter(pk=invitation_id, recipient=user, table=table, status=Invitation.Status.PENDING)
        .first()
        if isinstance(invitation_id, int)
        else None
    )
    if invitation is None:
        raise Refusal("no_invitation", gettext_noop("No such invitation."))
    if invitation.expires_at <= now:
        raise Refusal("expired", gettext_noop("This invitation has expired."))
    if is_banned(user) or is_kicked(user=user, table_id=table.pk):
        raise Refusal("no_access", gettext_noop("You cannot sit at this table."))
    if table.status != Table.Status.WAITING:
        raise Refusal("match_running", gettext_noop("Seats can only change before the match starts."))
    if seat_for(seats, user) is not None:
        raise Refusal("already_seated", gettext_noop("You already sit at this table."))
    offered = seats[invitation.seat]
    seat = offered if offered.is_free else next((s for s in seats if s.is_free), None)
    if seat is None:
        raise Refusal("table_full", gettext_noop("There is no free seat at this table."))
    seat.user = user
    seat.save(update_fields=["user"])
    invitation.status = Invitation.Status.ACCEPTED
    invitation.save(update_fields=["status"])
    events.send_on_commit(group=events.invitations_group(user.pk), message=events.invitations_changed())
    logged = {"type": "accept_invitation", "invitation": invitation.pk, "seat": seat.position, "user": user.pk}
    return [Applied(logged, [{"type": "seated", "seat": seat.position}])]
