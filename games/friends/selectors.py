"""Friends and invitations, the reads (docs/friends.md)."""

from django.contrib.auth import get_user_model
from django.utils import timezone

from games.friends.models import Block, Follow, Invitation
from games.models import Table
from games.runtime.presence import where_online


def friends_of(*, user):
    """The players this user follows who follow them back, by name."""
    back = Follow.objects.filter(follower_id__in=Follow.objects.filter(follower=user).values("followed"), followed=user)
    return get_user_model().objects.filter(pk__in=back.values("follower"), is_active=True).order_by("username")


def follows(*, follower, followed) -> bool:
    return Follow.objects.filter(follower=follower, followed=followed).exists()


def blocked_ids(*, user) -> set[int]:
    """Whom this user blocked (their chat and invitations are hidden from this user)."""

    return set(Block.objects.filter(blocker=user).values_list("blocked_id", flat=True))


def blocks(*, blocker_id: int, blocked_id: int) -> bool:
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def pending_invitations(*, user) -> list[Invitation]:
    """The user's invitations still open, newest first, none from a player they block."""
    return list(
        Invitation.objects.filter(recipient=user, status=Invitation.Status.PENDING, expires_at__gt=timezone.now())
        .exclude(sender_id__in=blocked_ids(user=user))
        .exclude(table__status=Table.Status.CLOSED)
        .select_related("sender", "table")[:10]
    )


def friends_with_presence(*, user) -> list[dict]:
    """The user's friends: online or not, and at which table (a private table unnamed)."""
    friends = list(friends_of(user=user))
    online = where_online(friend.pk for friend in friends)
    tables = Table.objects.in_bulk({table for table in online.values() if table is not None})
    rows = []
    for friend in friends:
        table = tables.get(online[friend.pk]) if friend.pk in online else None
        rows.append(
            {
                "user": friend,
                "online": friend.pk in online,
                "table": table if table is not None and not table.is_private else None,
                "at_private_table": table is not None and table.is_private,
            }
        )
    return sorted(rows, key=lambda row: (not row["online"], row["user"].username))


def invitable_friends(*, user, table, seats) -> list[dict]:
    """Friends who could be invited to this table now: the owner or a seated player asks,
    before the match, with a seat free; friends already seated are left out."""
    if table.status != Table.Status.WAITING or not any(seat.is_free for seat in seats):
        return []
    if not user.is_authenticated or (user.pk != table.owner_id and all(seat.user_id != user.pk for seat in seats)):
        return []
    seated = {seat.user_id for seat in seats}
    return [row for row in friends_with_presence(user=user) if row["user"].pk not in seated]
