"""Match history (games/history/matches.py, games/web/history_views.py) and profile statistics (games/web/profile_stats.py).

The records are written here directly: these are read paths, and the numbers must
be exactly the ones chosen. (tests/history/test_replay.py plays real hands through the
write path.)
"""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.history import matches
from games.history.hand_records import hand_scored
from games.models import Hand, Match, MatchPlayer
from games.web.profile_stats import profile_stats
from tests.conftest import make_table, make_user

pytestmark = pytest.mark.django_db


def make_match(table, seated, *, days_ago=0, winner=None, aborted=False, levels=None):
    """A match with `seated` (users or None for a bot) at positions 0-3."""
    number = table.matches.count() + 1
    match = Match.objects.create(table=table, number=number, winner_team=winner, aborted=aborted, final_levels=levels)
    started = timezone.now() - timedelta(days=days_ago, minutes=number)
    Match.objects.filter(pk=match.pk).update(started_at=started)
    if winner is not None or aborted:
        Match.objects.filter(pk=match.pk).update(finished_at=started + timedelta(hours=1))
    MatchPlayer.objects.bulk_create(
        MatchPlayer(match=match, position=p, user=u, bot="" if u else "basic") for p, u in enumerate(seated)
    )
    match.refresh_from_db()
    return match


def make_hand(
    match,
    number,
    *,
    dealer,
    level="2",
    trump="H",
    score=None,
    before=None,
    after=None,
    trick_points=None,
    bonus=0,
    penalties=0,
    change=None,
):
    finished = score is not None
    before = before or {"0": "2", "1": "2"}
    hand = Hand.objects.create(
        match=match,
        number=number,
        seed=f"seed-{match.pk}-{number}",
        deck=["S2"] * 108,
        level=level,
        dealer=dealer,
        trump=trump,
        levels_before=before,
        first_seq=number * 1000,
        last_seq=number * 1000 + 500 if finished else None,
        trick_points=trick_points if trick_points is not None else (score if finished else None),
        kitty_points=10 if finished else None,
        kitty_multiplier=2 if bonus else 0,
        kitty_bonus=bonus if finished else None,
        penalties=penalties if finished else None,
        defenders_score=score,
        levels_after=after if finished else None,
        level_change=change if finished else None,
        finished_at=timezone.now() if finished else None,
    )
    if finished:  # what the write path does as a hand is scored (games/runtime/records.py)
        hand_scored(hand)
    return hand


@pytest.fixture
def people():
    names = ("ann", "bob", "cat", "dan", "eve", "fay")
    return {name: make_user(name) for name in names}


def _get(user, name, *args, **params):
    client = Client()
    client.force_login(user)
    return client.get(reverse(name, args=args), params)


# --- my matches --------------------------------------------------------------------------


def test_my_matches_lists_the_users_matches_only_newest_first(people):
    ann, bob, cat, dan, eve, fay = (people[n] for n in ("ann", "bob", "cat", "dan", "eve", "fay"))
    table = make_table(ann)
    won = make_match(table, [ann, bob, cat, dan], days_ago=3, winner=0, levels={"0": "A", "1": "9"})
    lost = make_match(table, [bob, ann, dan, cat], days_ago=2, winner=0, levels={"0": "A", "1": "J"})
    aborted = make_match(table, [ann, None, cat, None], days_ago=1, aborted=True)
    running = make_match(table, [eve, dan, ann, fay])
    make_hand(running, 1, dealer=1, score=45, after={"0": "2", "1": "4"}, change={"team": 1, "levels": 2})
    others = make_match(table, [bob, cat, dan, eve], winner=1)

    rows = matches.match_rows(matches.user_matches(user=ann), user=ann)
    assert [row["match"] for row in rows] == [running, aborted, lost, won]
    assert [row["result"] for row in rows] == ["playing", "aborted", "lost", "won"]
    assert rows[0]["partner"] == "eve" and sorted(rows[0]["opponents"]) == ["dan", "fay"]
    assert (rows[0]["our_level"], rows[0]["their_level"]) == ("2", "4")  # after the last finished hand
    assert rows[1]["partner"] == "cat" and rows[1]["opponents"] == ["East · basic bot", "West · basic bot"]
    assert rows[2]["partner"] == "cat" and sorted(rows[2]["opponents"]) == ["bob", "dan"]
    assert (rows[2]["our_level"], rows[2]["their_level"]) == ("J", "A")
    assert (rows[3]["our_level"], rows[3]["their_level"]) == ("A", "9")

    html = _get(ann, "my_matches").content.decode()
    for match in (won, lost, aborted, running):
        assert f'data-match="{match.pk}"' in html and reverse("match_detail", args=[match.pk]) in html
    assert f'data-match="{others.pk}"' not in html
    assert html.index(f'data-match="{running.pk}"') < html.index(f'data-match="{won.pk}"')
    for word in ("Your team won", "The other team won", "aborted", "in progress"):
        assert f">{word}</span>" in html
    # Each row shows both teams' levels at a glance, the winners' marked.
    lost_row = html.split(f'data-match="{lost.pk}"')[1].split("</li>")[0]
    assert re.search(r'is-winner">\s*<dt>bob, dan</dt>\s*<dd class="level" data-testid="their-level">A</dd>', lost_row)
    assert "You and cat" in lost_row and 'data-testid="our-level">J<' in lost_row

    assert f'data-match="{won.pk}"' not in _get(fay, "my_matches").content.decode()


def test_with_no_match_my_matches_invites_to_play_or_learn(people):
    html = _get(people["ann"], "my_matches").content.decode()
    empty = html.split('data-testid="empty-state"')[1]
    assert f'action="{reverse("play_now")}"' in empty and "Play now against bots" in empty
    assert f'href="{reverse("learn")}"' in empty and f'href="{reverse("lobby")}"' in empty
    assert "data-match=" not in html


def test_my_matches_needs_a_login():
    response = Client().get(reverse("my_matches"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_my_matches_pages_twenty_at_a_time(people):
    ann, bob = people["ann"], people["bob"]
    table = make_table(ann)
    matches = [make_match(table, [ann, bob, None, None], days_ago=30 - n) for n in range(25)]
    newest_first = [m.pk for m in reversed(matches)]

    def listed(page):
        html = _get(ann, "my_matches", page=page).content.decode()
        return [pk for pk in newest_first if f'data-match="{pk}"' in html], html

    first, html = listed(1)
    assert first == newest_first[:20] and "?page=2" in html and "Page 1 of 2" in html
    second, html = listed(2)
    assert second == newest_first[20:] and "?page=1" in html and "?page=3" not in html
    assert listed(99)[0] == newest_first[20:]  # past the end: the last page


# --- the match page ----------------------------------------------------------------------


def test_match_page_shows_every_hands_numbers(people):
    ann, bob, cat, dan = (people[n] for n in ("ann", "bob", "cat", "dan"))
    table = make_table(ann)
    match = make_match(table, [ann, bob, cat, dan])
    first = make_hand(
        match,
        1,
        dealer=2,
        trump="S",
        score=135,
        trick_points=95,
        bonus=40,
        penalties=0,
        after={"0": "2", "1": "3"},
        change={"team": 1, "levels": 1},
    )
    second = make_hand(
        match,
        2,
        dealer=3,
        level="3",
        trump="NT",
        score=25,
        trick_points=35,
        penalties=-10,
        before={"0": "2", "1": "3"},
        after={"0": "2", "1": "5"},
        change={"team": 1, "levels": 2},
    )
    running = make_hand(match, 3, dealer=1, level="5", trump="", before={"0": "2", "1": "5"})

    html = _get(people["eve"], "match_detail", match.pk).content.decode()  # public table: any user
    row1 = html.split('data-hand="1"')[1].split("</tr>")[0]
    assert ">cat<" in row1 and "♠" in row1
    assert 'class="trick-points">95<' in row1 and "40 (10 × 2)" in row1
    assert "<strong>135</strong>" in row1 and "+1" in row1 and "2–2 → 2–3" in row1
    row2 = html.split('data-hand="2"')[1].split("</tr>")[0]
    assert ">dan<" in row2 and "no-trump" in row2 and 'class="penalties">-10<' in row2
    assert "<strong>25</strong>" in row2 and "+2" in row2
    row3 = html.split('data-hand="3"')[1].split("</tr>")[0]
    assert "In progress" in row3 and ">bob<" in row3
    assert reverse("hand_replay", args=[first.pk]) in html and reverse("hand_replay", args=[second.pk]) in html
    assert reverse("hand_replay", args=[running.pk]) not in html
    assert running.seed not in html and first.seed not in html  # seeds (the deck) never appear
    assert 'class="level-0">2<' in html and 'class="level-1">5<' in html  # after the last finished hand


def test_private_match_pages_are_for_their_players_and_staff(people):
    ann, bob, eve = people["ann"], people["bob"], people["eve"]
    table = make_table(ann, is_private=True)
    match = make_match(table, [ann, bob, None, None])
    assert _get(bob, "match_detail", match.pk).status_code == 200
    assert _get(eve, "match_detail", match.pk).status_code == 404
    eve.is_staff = True
    eve.save()
    assert _get(eve, "match_detail", match.pk).status_code == 200


# --- profile statistics ------------------------------------------------------------------


def test_profile_stats_count_from_the_users_own_seat(people):
    ann, bob, cat, dan = (people[n] for n in ("ann", "bob", "cat", "dan"))
    table = make_table(ann)
    # ann sits at 1 (East–West), bob at 0 (North–South).
    won = make_match(table, [bob, ann, cat, dan], days_ago=5, winner=1, levels={"0": "5", "1": "A"})
    make_hand(won, 1, dealer=1, score=20, after={"0": "2", "1": "4"})  # ann deals
    make_hand(won, 2, dealer=0, score=85, after={"0": "2", "1": "K"})  # ann defends
    make_hand(won, 3, dealer=2, score=40, after={"0": "3", "1": "A"})  # ann defends
    lost = make_match(table, [bob, ann, cat, dan], days_ago=4, winner=0, levels={"0": "A", "1": "3"})
    make_hand(lost, 1, dealer=3, score=130, after={"0": "3", "1": "3"})  # ann's partner deals
    make_match(table, [bob, ann, cat, dan], days_ago=3, aborted=True)
    latest = make_match(table, [ann, bob, cat, dan], days_ago=1)  # ann now at 0
    make_hand(latest, 1, dealer=0, score=60, after={"0": "6", "1": "2"})  # ann deals
    make_hand(latest, 2, dealer=1)  # running: not counted

    stats = profile_stats(ann)
    assert (stats["matches_played"], stats["matches_won"]) == (2, 1)
    assert stats["hands_as_dealer"] == 2
    assert stats["hands_as_defender"] == 2
    assert stats["defenders_average"] == 62.5
    assert stats["current_level"] == "6" and stats["best_level"] == "A"
    assert next(row["match"] for row in stats["recent_matches"]) == latest and len(stats["recent_matches"]) == 4

    bob_stats = profile_stats(bob)
    assert (bob_stats["matches_played"], bob_stats["matches_won"]) == (2, 1)
    assert bob_stats["hands_as_dealer"] == 1  # dealt hand 2 of the first match
    assert bob_stats["hands_as_defender"] == 3  # hands 1 of both, and latest's hand 1
    assert bob_stats["defenders_average"] == round((20 + 130 + 60) / 3, 1)
    assert bob_stats["current_level"] == "2" and bob_stats["best_level"] == "3"

    empty = profile_stats(people["eve"])
    assert empty["matches_played"] == 0 and empty["current_level"] is None and empty["recent_matches"] == []


def test_profile_page_shows_the_stats_but_not_private_tables(people):
    ann, bob = people["ann"], people["bob"]
    public = make_match(make_table(ann), [ann, bob, None, None], days_ago=2, winner=0)
    make_hand(public, 1, dealer=0, score=10, after={"0": "J", "1": "2"})
    hidden = make_match(make_table(bob, is_private=True), [ann, bob, None, None], days_ago=1)

    html = Client().get(reverse("profile", args=["ann"])).content.decode()
    assert 'id="profile-stats"' in html
    assert 'data-stat="matches_played">1<' in html and 'data-stat="matches_won">1<' in html
    assert 'data-stat="best_level">J<' in html
    assert reverse("match_detail", args=[hidden.pk]) not in html
    own = _get(ann, "profile", "ann").content.decode()
    assert reverse("match_detail", args=[public.pk]) in own and reverse("my_matches") in own
    assert reverse("match_detail", args=[hidden.pk]) not in own
