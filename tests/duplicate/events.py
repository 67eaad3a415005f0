"""What the events' tests build again and again: an organiser, an event, pairs entered
through the events' write path (registered, confirmed by the partner, checked in)."""

from datetime import timedelta

from django.utils import timezone

from games.duplicate import service
from tests.conftest import make_user


def organiser(name: str = "organiser", password: str | None = None):
    """A staff member, who may create public events."""
    user = make_user(name, password) if password else make_user(name)
    user.is_staff = True
    user.save()
    return user


def an_event(created_by=None, **options):
    """A pairs event of one round of one board, starting in an hour, dealt at once (its
    options override these)."""
    values = {
        "created_by": created_by or organiser(),
        "name": "Club night",
        "kind": "pairs",
        "rounds": 1,
        "boards_per_round": 1,
        "round_minutes": 30,
        "starts_at": timezone.now() + timedelta(hours=1),
        "deal_pace_ms": 1,
        "last_chance_ms": 0,
    }
    return service.event_create(**{**values, **options})


def pairs_entered(event, people, checked_in: bool = True) -> None:
    """`people` entered as pairs (the 1st with the 2nd, the 3rd with the 4th, …), each pair
    confirmed by its partner and, unless told otherwise, checked in."""
    for player, partner in zip(people[::2], people[1::2]):
        service.event_register(event_id=event.pk, user=player, partner=partner)
        service.event_partner_confirm(event_id=event.pk, user=partner)
        if checked_in:
            service.event_check_in(event_id=event.pk, user=player)
