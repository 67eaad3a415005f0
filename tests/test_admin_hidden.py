"""Staff pages keep a running hand's hidden cards hidden too (RULES §9): moderators may
also be players. Everything shows once the hand is over."""
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.runtime import writer
from games.models import Bury, Hand, TableEvent
from tests.conftest import make_table
from tests.table_driver import drive

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    admin = get_user_model().objects.create_superuser("boss", "boss@example.com", "a-long-test-pass-1")
    client.force_login(admin)
    return client


def test_running_hand_secrets_stay_out_of_the_admin_until_the_hand_is_over(players, settings, staff_client):
    settings.GAMES_NEXT_HAND_DELAY_MS = 60_000
    table = make_table(players[0], players=players, pace_ms=1, window_ms=0)
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=players[0])
    table, game = drive(table.pk, dict(enumerate(players)), lambda g: g.phase == "play" and len(g.tricks) >= 1)
    hand = Hand.objects.get(match__table=table, number=1)
    bury = Bury.objects.get(hand=hand)
    started = TableEvent.objects.get(table=table, action__type="start_hand")
    kitty_only = set(bury.cards)

    pages = [
        staff_client.get(reverse("admin:games_hand_change", args=[hand.pk])).text,
        staff_client.get(reverse("admin:games_tableevent_change", args=[started.pk])).text,
        staff_client.get(reverse("admin:games_bury_changelist")).text,
    ]
    for page in pages:
        assert hand.seed not in page and started.action["seed"] not in page
        assert f"/admin/games/bury/{bury.pk}/" not in page
    assert staff_client.get(reverse("admin:games_bury_change", args=[bury.pk])).status_code in (302, 404)
    assert kitty_only  # the check above is about these cards' record

    table, game = drive(table.pk, dict(enumerate(players)), lambda g: g.phase in ("scored", "finished"))
    page = staff_client.get(reverse("admin:games_hand_change", args=[hand.pk])).text
    assert hand.seed in page
    assert started.action["seed"] in staff_client.get(reverse("admin:games_tableevent_change", args=[started.pk])).text
