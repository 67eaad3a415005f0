"""Friends and invitations, the writes (docs/friends.md): follow, block, invite, decline.

Accepting an invitation seats the player, so it is a command of the table's one write
path (games/friends/commands.py). Every refusal is a `Refusal` and changes nothing.
"""

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User  # settings.AUTH_USER_MODEL (the default)
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.throttle import count_in_window
from games import events, selectors
from games.engine import Refusal
from games.friends.models import Block, Follow, Invitation
from games.friends.selectors import blocks, follows
from games.models import Table
from games.sanctions import is_banned, is_kicked, is_muted

INVITATION_LIFETIME = timedelta(minutes=2)
INVITATIONS_PER_MINUTE = 10
# Follows, unfollows, blocks and unblocks together: a person changes a few a minute; a
# script toggling them would flood the followed player's page and the database.
RELATION_CHANGES_PER_MINUTE = 30

NO_SUCH_PLAYER = ("no_user", gettext_noop("No such player."))
CANNOT_INVITE = ("cannot_invite", gettext_noop("You cannot invite this player."))


def _other(user, target_id) -> User:
    target = (
        get_user_model().objects.filter(pk=target_id, is_active=True).first() if isinstance(target_id, int) else None
    )
    if target is None:
        raise Refusal(*NO_SUCH_PLAYER)
    if target.pk == user.pk:
        raise Refusal("self", gettext_noop("You cannot do that to yourself."))
    return target


def relations_key(user) -> str:
    return f"relations:{user.pk}"


def _relation_check(user) -> None:
    """Refuse a follow or block change over the flood limit (counted before the change)."""
    if count_in_window(relations_key(user), 60) > RELATION_CHANGES_PER_MINUTE:
        raise Refusal(
            "too_many", gettext_noop("You have followed or blocked many players at once. Please wait a minute.")
        )


@transaction.atomic
def follow_set(*, user, target_id: int, following: bool) -> None:
    """Follow (or stop following) a player. One cannot follow someone who blocks them."""
    target = _other(user, target_id)
    _relation_check(user)
    if not following:
        Follow.objects.filter(follower=user, followed=target).delete()
        return
    if blocks(blocker_id=target.pk, blocked_id=user.pk):
        raise Refusal("blocked", gettext_noop("You cannot follow this player."))
    Follow.objects.get_or_create(follower=user, followed=target)


@transaction.atomic
def block_set(*, user, target_id: int, blocking: bool) -> None:
    """Block (or unblock) a player. Blocking ends following both ways and withdraws their
    pending invitations to this user."""
    target = _other(user, target_id)
    _relation_check(user)
    if not blocking:
        Block.objects.filter(blocker=user, blocked=target).delete()
        return
    Block.objects.get_or_create(blocker=user, blocked=target)
    Follow.objects.filter(follower=user, followed=target).delete()
    Follow.objects.filter(follower=target, followed=user).delete()
    Invitation.objects.filter(sender=target, recipient=user, status=Invitation.Status.PENDING).update(
        status=Invitation.Status.DECLINED
    )
    events.send_on_commit(group=events.invitations_group(user.pk), message=events.invitations_changed())


def invitation_send(*, sender, table_id: int, recipient_id) -> Invitation:
    """Invite a friend to a free seat at a table the sender sits at (or owns), before the
    match starts."""
    recipient = _other(sender, recipient_id)
    if count_in_window(f"invitations:{sender.pk}", 60) > INVITATIONS_PER_MINUTE:
        raise Refusal("too_many", gettext_noop("You have sent many invitations. Please wait a minute."))
    if is_muted(sender):
        raise Refusal("muted", gettext_noop("You are muted: you cannot send invitations."))
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first() if isinstance(table_id, int) else None
        if table is None or table.status == Table.Status.CLOSED:
            raise Refusal("no_table", gettext_noop("No such table."))
        seats = list(table.seats.order_by("position"))
        if table.owner_id != sender.pk and selectors.seat_for(seats, sender) is None:
            raise Refusal("not_your_table", gettext_noop("You can only invite people to a table you sit at."))
        if table.status != Table.Status.WAITING:
            raise Refusal("match_running", gettext_noop("Seats can only change before the match starts."))
        free = [seat for seat in seats if seat.is_free]
        if not free:
            raise Refusal("table_full", gettext_noop("There is no free seat at this table."))
        if selectors.seat_for(seats, recipient) is not None:
            raise Refusal("already_seated", gettext_noop("That player already sits at this table."))
        if not (follows(follower=sender, followed=recipient) and follows(follower=recipient, followed=sender)):
            raise Refusal("not_friends", gettext_noop("You can only invite friends (players who follow you back)."))
        # Blocked, banned or kicked from this table: the same words, so a block is not revealed.
        if (
            blocks(blocker_id=recipient.pk, blocked_id=sender.pk)
            or is_banned(recipient)
            or is_kicked(user=recipient, table_id=table.pk)
        ):
            raise Refusal(*CANNOT_INVITE)
        now = timezone.now()
        if _pending(recipient).filter(table=table, expires_at__gt=now).exists():
            raise Refusal("already_invited", gettext_noop("That player already has an invitation to this table."))
        invitation = Invitation.objects.create(
            table=table,
            sender=sender,
            recipient=recipient,
            seat=free[0].position,
            expires_at=now + INVITATION_LIFETIME,
        )
        events.send_on_commit(group=events.invitations_group(recipient.pk), message=events.invitations_changed())
    return invitation


def _pending(recipient):
    return Invitation.objects.filter(recipient=recipient, status=Invitation.Status.PENDING)


@transaction.atomic
def invitation_decline(*, user, invitation_id) -> None:
    invitation = (
        _pending(user).select_for_update().filter(pk=invitation_id).first() if isinstance(invitation_id, int) else None
    )
    if invitation is None:
        raise Refusal("no_invitation", gettext_noop("No such invitation."))
    invitation.status = Invitation.Status.DECLINED
    invitation.save(update_fields=["status"])
    events.send_on_commit(group=events.invitations_group(user.pk), message=events.invitations_changed())


def invitation_table(*, user, invitation_id) -> int:
    """The table of one of the user's pending invitations (to accept it through its table's
    write path), or a refusal."""
    table_id = (
        _pending(user).filter(pk=invitation_id).values_list("table_id", flat=True).first()
        if isinstance(invitation_id, int)
        else None
    )
    if table_id is None:
        raise Refusal("no_invitation", gettext_noop("No such invitation."))
    return table_id
