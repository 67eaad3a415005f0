"""The table service itself keeps public tables timed (not only the create form and Play
now): one absent player must not stall three others."""

import pytest

from games.engine import Refusal
from games.models import Seat, Table
from games.runtime.tables import PUBLIC_TURN_LIMIT_S, table_create
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def test_a_public_table_with_the_limit_off_is_refused_and_nothing_is_created():
    owner = make_user("owner")
    with pytest.raises(Refusal) as refused:
        table_create(owner=owner, name="stalls", is_private=False, turn_limit_s=0)
    assert refused.value.code == "public_needs_limit"
    with pytest.raises(Refusal):
        table_create(owner=owner, name="stalls too", turn_limit_s=0)  # public unless said otherwise
    assert not Table.objects.exists() and not Seat.objects.exists()


def test_a_public_table_gets_the_default_limit_and_a_private_one_may_have_none():
    owner = make_user("owner")
    public = table_create(owner=owner, name="open")
    assert public.turn_limit_s == PUBLIC_TURN_LIMIT_S == 30
    assert table_create(owner=owner, name="quick", turn_limit_s=15).turn_limit_s == 15
    private = table_create(owner=owner, name="friends", is_private=True, turn_limit_s=0)
    assert private.turn_limit_s == 0 and private.seats.count() == 4
