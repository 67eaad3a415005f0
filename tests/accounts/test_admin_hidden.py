"""Staff pages keep a running hand's hidden cards hidden too (RULES §9): moderators may
also be players. Everything shows once the hand is over (games/admin.py)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Bury, Hand, TableEvent
from games.runtime import writer
from tests.conftest import make_moderator, make_table
from tests.table_driver import drive

pytestmark = pytest.mark.django_db

# A card code as the admin shows stored JSON: quoted, the quotes HTML-escaped.
QUOTED_CARD = re.compile(r'(?:&quot;|&#x27;|")(BJK|SJK|[SHDC](?:10|[2-9JQKA]))(?:&quot;|&#x27;|")')


def codes_on(client, url) -> set[str]:
    response = client.get(url)
    assert response.status_code == 200, url
    return set(QUOTED_CARD.findall(response.text))


def test_running_hand_secrets_stay_out_of_the_admin_until_the_hand_is_over(players, settings):
    settings.GAMES_NEXT_HAND_DELAY_MS = 60_000
    moderator = Client()
    moderator.force_login(make_moderator())  # staff with the moderation permission, not a superuser
    table = make_table(players[0], players=players, pace_ms=1, window_ms=0)
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=players[0])
    table, _game = drive(table.pk, dict(enumerate(players)), lambda g: g.phase == "play" and len(g.tricks) >= 1)
    hand = Hand.objects.get(match__table=table, number=1)
    bury = Bury.objects.get(hand=hand)
    buried_row = TableEvent.objects.get(table=table, action__type="bury")
    rows = TableEvent.objects.filter(table=table, hand=hand)
    assert len(set(bury.cards)) >= 2 and rows.filter(action__type="play").count() >= 4

    pages = [
        reverse("admin:games_hand_change", args=[hand.pk]),
        reverse("admin:games_match_change", args=[hand.match_id]),
        reverse("admin:games_table_change", args=[table.pk]),
        reverse("admin:games_bury_changelist"),
        reverse("admin:games_tableevent_changelist") + f"?table__id__exact={table.pk}",
        *(reverse("admin:games_tableevent_change", args=[row.pk]) for row in rows),
    ]
    for url in pages:
        assert hand.seed not in moderator.get(url).text  # the seed would give the whole deck away
        shown = codes_on(moderator, url)
        # Not the buried cards, not anyone's hand (the deck, the deals), not even played cards.
        assert not shown, f"{url} shows {sorted(shown)} while the hand runs"
    assert moderator.get(reverse("admin:games_bury_change", args=[bury.pk])).status_code in (302, 404)

    drive(table.pk, dict(enumerate(players)), lambda g: g.phase in ("scored", "finished"))
    assert set(bury.cards) <= codes_on(moderator, reverse("admin:games_bury_change", args=[bury.pk]))
    assert set(bury.cards) <= codes_on(moderator, reverse("admin:games_hand_change", args=[hand.pk]))
    assert set(hand.deck) <= codes_on(moderator, reverse("admin:games_hand_change", args=[hand.pk]))
    assert hand.seed in moderator.get(reverse("admin:games_hand_change", args=[hand.pk])).text
    assert set(bury.cards) <= codes_on(moderator, reverse("admin:games_tableevent_change", args=[buried_row.pk]))
