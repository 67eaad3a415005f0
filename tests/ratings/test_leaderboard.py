"""The leaderboard (/leaderboard/): established players only, all time by rating and the
last 30 days by rating gained, paginated, in both languages."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Match, Table
from games.ratings import maths
from games.ratings.models import RatedMatch, Rating, RatingChange
from games.ratings.views import PER_PAGE
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

ESTABLISHED = maths.PROVISIONAL_MATCHES


def _rated(user, display, matches, at=None):
    return Rating.objects.create(
        user=user, mu=25, sigma=2, display=display, matches=matches, rated_at=at or timezone.now()
    )


def _change(user, delta, at):
    table = Table.objects.create(owner=user, name="t", rated=True)
    match = Match.objects.create(table=table, number=1, rated=True, winner_team=0, finished_at=at)
    entry = RatedMatch.objects.create(match=match, lineup=str(user.pk), rated_at=at)
    RatingChange.objects.create(
        rated_match=entry, user=user, position=0, mu_before=25, sigma_before=2, mu_after=25, sigma_after=2,
        display_before=1400, display_after=1400 + delta, matches_after=ESTABLISHED, rated_at=at,
    )  # fmt: skip


def _rows(html):
    import re

    return re.findall(r'<td class="name"><a href="/accounts/u/([^/]+)/">', html)


def test_all_time_by_rating_without_provisional_players():
    ann, bo, cy, dee = (make_user(n) for n in ("ann", "bo", "cy", "dee"))
    _rated(ann, 1500, ESTABLISHED)
    _rated(bo, 1700, ESTABLISHED + 5)
    _rated(cy, 1900, ESTABLISHED - 1)  # provisional: not listed however high
    dee.is_active = False
    dee.save()
    _rated(dee, 2000, 50)
    html = Client().get(reverse("leaderboard")).content.decode()
    assert _rows(html) == ["bo", "ann"]
    assert "1700" in html and "1900" not in html


def test_the_last_30_days_by_rating_gained():
    now = timezone.now()
    ann, bo, cy = (make_user(n) for n in ("ann", "bo", "cy"))
    for user in (ann, bo, cy):
        _rated(user, 1500, ESTABLISHED)
    _change(ann, 30, now - timedelta(days=2))
    _change(ann, -10, now - timedelta(days=3))
    _change(bo, 25, now - timedelta(days=1))
    _change(cy, 90, now - timedelta(days=31))  # too long ago
    html = Client().get(reverse("leaderboard") + "?period=30d").content.decode()
    assert _rows(html) == ["bo", "ann"]  # +25, then +20
    assert "+25" in html and "+20" in html and "+90" not in html


def test_pages_of_fifty_and_the_ranks_go_on():
    for n in range(PER_PAGE + 3):
        _rated(make_user(f"player{n:03d}"), 2000 - n, ESTABLISHED)
    client = Client()
    first = client.get(reverse("leaderboard")).content.decode()
    second = client.get(reverse("leaderboard") + "?page=2").content.decode()
    assert len(_rows(first)) == PER_PAGE and _rows(second) == ["player050", "player051", "player052"]
    assert '<td class="num">51</td>' in second and "Page 2 of 2" in second


def test_in_chinese_and_linked_from_the_navigation():
    _rated(make_user("ann"), 1500, ESTABLISHED)
    client = Client()
    client.cookies["django_language"] = "zh-hans"
    html = client.get(reverse("leaderboard")).content.decode()
    assert "排行榜" in html and "全部时间" in html and "积分" in html
    lobby = Client().get(reverse("lobby")).content.decode()
    assert 'href="/leaderboard/"' in lobby


def test_a_bad_period_or_page_shows_the_first_page_of_all_time():
    _rated(make_user("ann"), 1500, ESTABLISHED)
    html = Client().get(reverse("leaderboard") + "?period=<script>&page=zz").content.decode()
    assert _rows(html) == ["ann"] and "<script>" not in html


def test_the_last_30_days_pages_and_leaves_provisional_and_inactive_players_out():
    now = timezone.now()
    for n in range(PER_PAGE + 3):
        user = make_user(f"player{n:03d}")
        _rated(user, 1500, ESTABLISHED)
        _change(user, 200 - n, now - timedelta(days=1))
    newcomer = make_user("newcomer")  # the biggest gain, but provisional: not listed
    _rated(newcomer, 1500, ESTABLISHED - 1)
    _change(newcomer, 500, now - timedelta(days=1))
    gone = make_user("gone")
    _rated(gone, 1500, ESTABLISHED)
    _change(gone, 400, now - timedelta(days=1))
    gone.is_active = False
    gone.save()
    client = Client()
    url = reverse("leaderboard") + "?period=30d"
    first = client.get(url).content.decode()
    second = client.get(url + "&page=2").content.decode()
    assert _rows(first) == [f"player{n:03d}" for n in range(PER_PAGE)] and "Page 1 of 2" in first
    assert _rows(second) == ["player050", "player051", "player052"] and "Page 2 of 2" in second
    assert '<td class="num">51</td>' in second and "+150" in second
    assert "newcomer" not in first + second and "gone" not in first + second
    # Out of range: the last page, as for all time; not a number: the first.
    assert _rows(client.get(url + "&page=99").content.decode()) == _rows(second)
    assert _rows(client.get(url + "&page=0").content.decode()) == _rows(second)
    assert _rows(client.get(url + "&page=x").content.decode()) == _rows(first)


def test_the_last_30_days_in_chinese():
    ann = make_user("ann")
    _rated(ann, 1500, ESTABLISHED)
    _change(ann, 25, timezone.now() - timedelta(days=1))
    client = Client()
    client.cookies["django_language"] = "zh-hans"
    html = client.get(reverse("leaderboard") + "?period=30d").content.decode()
    assert "最近 30 天" in html and "涨分" in html and "这段时间内在计分比赛中获得的积分。" in html
    assert _rows(html) == ["ann"] and "+25" in html


def test_an_empty_leaderboard_invites_to_a_rated_table():
    _rated(make_user("newcomer"), 1500, ESTABLISHED - 1)  # provisional: not listed
    html = Client().get(reverse("leaderboard")).content.decode()
    empty = html.split('data-testid="empty-state"')[1]
    assert "Nobody is listed yet" in empty and "Start a rated table" in empty
    for name in ("create_table", "lobby", "learn"):
        assert f'href="{reverse(name)}"' in empty
    assert 'class="data board"' not in html
