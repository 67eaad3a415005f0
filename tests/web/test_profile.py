"""The profile's pictures and records (games/web/profile_stats.py, games/history/charts.py, the profile page):
server-side SVG charts with labelled axes, the record as dealer and defender, kitty bonuses,
failed throws counted by the write path's records, partners and opponents."""

import itertools
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import engine
from games.history.charts import bar_chart, line_chart, nice_ticks
from games.models import MatchPlayer, Table, TableEvent
from games.ratings.service import match_rate
from games.runtime import writer
from games.web.profile_stats import levels_per_hand, profile_stats
from tests.conftest import make_table, make_user
from tests.history.test_history import make_hand, make_match
from tests.table_driver import drive

pytestmark = pytest.mark.django_db


# --- charts (pure) ----------------------------------------------------------------------


def test_ticks_are_round_and_cover_the_values():
    assert nice_ticks(1003, 1187) == [1000, 1050, 1100, 1150, 1200]
    assert nice_ticks(-3, 2) == [-4, -2, 0, 2]
    assert nice_ticks(-1, 3) == [-1, 0, 1, 2, 3]
    assert nice_ticks(5, 5) == [4, 5, 6]


def test_a_line_chart_maps_values_into_the_plot_and_labels_its_axes():
    chart = line_chart([1000, 1040, 1010], title="t", x_label="Rated matches", y_label="Rating", first_number=0)
    points = [tuple(map(float, p.split())) for p in chart.path[1:].split(" L")]
    assert [x for x, _ in points] == [chart.left, (chart.left + chart.right) / 2, chart.right]
    ys = [y for _, y in points]
    assert ys[1] < ys[2] < ys[0]  # higher rating, higher on the page
    assert all(chart.top <= y <= chart.bottom for y in ys)
    assert [t["label"] for t in chart.x_ticks] == ["0", "1", "2"] and chart.last["label"] == "1010"
    assert {t["label"] for t in chart.y_ticks} >= {"1000", "1040"}


def test_a_bar_chart_draws_ups_and_downs_from_zero():
    chart = bar_chart([2, -1, 0, 3], title="t", x_label="Latest hands", y_label="Levels")
    kinds = [bar["kind"] for bar in chart.bars]
    assert kinds == ["up", "down", "even", "up"]
    up, down = chart.bars[0], chart.bars[1]
    assert up["y"] + up["height"] == pytest.approx(chart.zero) and down["y"] == pytest.approx(chart.zero)
    assert chart.bars[3]["height"] > up["height"] > down["height"]


# --- records ------------------------------------------------------------------------------


@pytest.fixture
def people(db):
    return {name: make_user(name) for name in ("ann", "bob", "cat", "dan", "eve")}


def _change(team, levels):
    return {"team": team, "levels": levels}


def test_record_as_dealer_and_defender_kitty_bonuses_and_levels_per_hand(people):
    ann, bob, cat, dan = (people[n] for n in ("ann", "bob", "cat", "dan"))
    match = make_match(make_table(ann), [ann, bob, cat, dan], days_ago=1, winner=0, levels={"0": "A", "1": "5"})
    # ann sits North (team 0).
    make_hand(match, 1, dealer=0, score=30, change=_change(0, 2), after={"0": "4", "1": "2"})  # dealt, kept
    make_hand(match, 2, dealer=2, score=95, bonus=10, change=_change(1, 0), after={"0": "4", "1": "2"})  # lost, bonus
    make_hand(match, 3, dealer=1, score=125, bonus=20, change=_change(0, 1), after={"0": "5", "1": "2"})  # took over
    make_hand(match, 4, dealer=0, score=60, change=_change(0, 1), after={"0": "6", "1": "2"})  # dealt, kept
    make_hand(match, 5, dealer=0, score=140, change=_change(1, 1), after={"0": "6", "1": "3"})  # dealt, lost
    make_hand(match, 6, dealer=3, score=45, change=_change(1, 1), after={"0": "6", "1": "4"})  # defended, held
    stats = profile_stats(ann)
    assert stats["as_dealer"] == {"hands": 4, "kept": 2, "lost": 2}
    assert stats["as_defender"] == {"hands": 2, "took_over": 1, "held": 1}
    assert stats["kitty"] == {"won": 1, "won_points": 20, "conceded": 1, "conceded_points": 10}
    assert levels_per_hand(ann) == [2, 0, 1, 1, -1, -1]
    assert levels_per_hand(bob) == [-2, 0, -1, -1, 1, 1]  # the other side of the same hands


def test_partners_and_opponents_at_public_tables_only(people):
    ann, bob, cat, dan, eve = people.values()
    public = make_table(ann)
    make_match(public, [ann, cat, bob, dan], days_ago=3, winner=0)
    make_match(public, [ann, dan, bob, cat], days_ago=2, winner=1)
    make_match(public, [ann, bob, cat, dan], days_ago=1, winner=0)  # cat partners ann here
    make_match(public, [ann, bob, cat, dan], days_ago=1, aborted=True)  # not finished: not counted
    private = make_table(eve, is_private=True)
    for days in (5, 6, 7):
        make_match(private, [ann, bob, eve, dan], days_ago=days, winner=0)
    stats = profile_stats(ann)
    assert [(p["user__username"], p["matches"], p["won"]) for p in stats["partners"]] == [("bob", 2, 1), ("cat", 1, 1)]
    assert [(p["user__username"], p["matches"], p["won"]) for p in stats["opponents"]] == [
        ("dan", 3, 2),
        ("cat", 2, 1),
        ("bob", 1, 1),
    ]


def test_the_five_met_most_often_ties_by_name_and_the_latest_matches(people):
    """Six partners once each: the first five by name. The latest match is at a private
    table: its level is the current one, but the recent matches list public ones only,
    the latest five; a match with a bot seat counts its people only."""
    ann, bob, cat, dan, eve = people.values()
    public = make_table(ann)
    others = [make_user(name) for name in ("zed", "yan", "xia", "wu", "vic", "uma")]
    for days, partner in enumerate(others, start=2):
        make_match(public, [ann, bob, partner, None], days_ago=days, winner=0, levels={"0": "5", "1": "3"})
    private = make_table(eve, is_private=True)
    make_match(private, [eve, ann, dan, cat], days_ago=0, winner=1, levels={"0": "4", "1": "K"})
    stats = profile_stats(ann)
    assert [p["user__username"] for p in stats["partners"]] == ["uma", "vic", "wu", "xia", "yan"]
    assert [(p["user__username"], p["matches"], p["won"]) for p in stats["opponents"]] == [("bob", 6, 6)]
    assert stats["current_level"] == "K" and stats["matches_played"] == 7 and stats["matches_won"] == 7
    assert [row["match"].table_id for row in stats["recent_matches"]] == [public.pk] * 5
    assert [row["partner"] for row in stats["recent_matches"]] == ["zed", "yan", "xia", "wu", "vic"]


def _failing_throw(game):
    """Two cards of one plain suit from the leader's hand that the other hands can beat."""
    seat = game.turn
    for a, b in itertools.combinations(sorted(set(game.hands[seat])), 2):
        try:
            if engine.check_play(game, seat, [a, b]) is not None:
                return [a, b]
        except engine.Refusal:
            continue
    return None


def test_failed_throws_are_counted_per_seat_by_the_records(players, settings):
    settings.GAMES_NEXT_HAND_DELAY_MS = 0
    table = make_table(players[0], players=players, pace_ms=1, window_ms=0)
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=players[0])
    thrown = 0
    while thrown < 2:
        table, game = drive(table.pk, dict(enumerate(players)), lambda g: g.phase == "play" and not g.trick)
        cards = _failing_throw(game)
        action = {"type": "play", "cards": cards or engine.sample_play(game, game.turn, __import__("random").Random(1))}
        writer.table_act(table_id=table.pk, action=action, expected_version=table.version, user=players[game.turn])
        thrown += cards is not None
    logged = [0] * 4
    for row in TableEvent.objects.filter(table=table):
        for event in row.events:
            if event["type"] == "throw_failed":
                logged[event["seat"]] += 1
    counted = list(
        MatchPlayer.objects.filter(match__table=table).order_by("position").values_list("failed_throws", flat=True)
    )
    assert counted == logged and sum(counted) >= 2


# --- the page -----------------------------------------------------------------------------


def test_the_profile_draws_both_charts_as_svg_with_labelled_axes_in_both_languages(people):
    ann, bob, cat, dan = (people[n] for n in ("ann", "bob", "cat", "dan"))
    table = make_table(ann, rated=True, turn_limit_s=30)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    for days in (4, 3, 2):
        match = make_match(table, [ann, bob, cat, dan], days_ago=days, winner=days % 2, levels={"0": "A", "1": "3"})
        match.rated = True
        match.save(update_fields=["rated"])
        make_hand(match, 1, dealer=0, score=30, change=_change(0, 2), after={"0": "4", "1": "2"})
        match_rate(match=match, now=timezone.now())
    html = Client().get(reverse("profile", args=["ann"])).content.decode()
    svgs = re.findall(r"<svg .*?</svg>", html, re.S)
    assert len(svgs) == 2
    rating_svg, levels_svg = svgs
    assert "Rated matches" in rating_svg and ">Rating<" in rating_svg and '<path class="line"' in rating_svg
    assert "Latest hands" in levels_svg and ">Levels<" in levels_svg and levels_svg.count('class="bar bar--up"') == 3
    assert 'data-stat="rating"' in html and "provisional" in html
    assert reverse("hand_replay", args=[match.hands.get().pk]) not in html  # visitors see no replay links
    client = Client()
    client.force_login(bob)
    client.cookies["django_language"] = "zh-hans"
    own = client.get(reverse("profile", args=["ann"])).content.decode()
    assert reverse("hand_replay", args=[match.hands.get().pk]) in own
    assert "计分比赛" in own and "最近比赛" in own and "作为庄家" in own


def test_a_busy_profile_costs_a_fixed_few_queries(people, django_assert_max_num_queries):
    """The player, rating, hand record and relations are one query, the seats one more
    (docs/performance.md): the count does not grow with the matches shown or met."""
    ann, bob, cat, dan, _eve = people.values()
    table = make_table(ann)
    for days in range(8):
        make_match(table, [ann, bob, cat, dan], days_ago=days, winner=days % 2)
    reader = Client()
    reader.force_login(bob)
    reader.get(reverse("profile", args=["ann"]))  # the session's first reads
    with django_assert_max_num_queries(10):
        page = reader.get(reverse("profile", args=["ann"]))
    assert page.status_code == 200 and page.content.decode().count('data-label="Partner"') == 5
