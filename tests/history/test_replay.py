"""Replays (games/history/replay.py, games/history/matches.py, the hand_replay page).

A real match is played through the one write path (`writer.table_act`): the clock's
steps issued by the clock, people's declarations, bury and plays with their user, the
plays drawn from `engine.sample_play` on the stored snapshot. The replay, folded from
the stored log, must then reproduce every trick and the stored score exactly.
"""

import random
import re
import time
from dataclasses import fields

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from games import engine, selectors
from games.history import matches, replay, steps
from games.models import Hand, Table, TableEvent
from games.runtime import clock, writer
from games.runtime.commands import Issuer
from tests.conftest import make_table, make_user

FAST = {
    "GAMES_BOT_DELAY_MS": 0,
    "GAMES_NEXT_HAND_DELAY_MS": 0,
    "GAMES_DEAL_LEAD_IN_MS": 0,
}


# --- driving a match through the write path -------------------------------------------


def _fresh(table_id):
    table = Table.objects.get(pk=table_id)
    return table, engine.Game.from_json(table.state), list(table.seats.order_by("position"))


def _clock_step(table, game, seats):
    """Submit the clock's due step once it is due (waiting for it if need be)."""
    step = clock.due_step(table, game, seats, timezone.now())
    wait = (step.due - timezone.now()).total_seconds()
    if wait > 0:
        time.sleep(wait)
    writer.table_act(table_id=table.pk, action=step.action, expected_version=table.version, issuer=Issuer.CLOCK)


def drive(table, players, *, hands: int, seed: int = 7, declare_every: int = 30, stop_after_plays=None):
    """Play `hands` hands (or stop `stop_after_plays` plays into the last one)."""
    rng = random.Random(seed)
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=table.owner)
    finished, plays = 0, 0
    while True:
        table, game, seats = _fresh(table.pk)
        if game.phase == "deal":
            live = selectors.live_game(table)
            options = [(seat, engine.legal_declarations(live, seat)) for seat in range(4)]
            options = [(seat, cards[0]) for seat, cards in options if cards]
            if options and live.dealt >= declare_every * (len(live.declarations) + 1):
                seat, cards = options[0]
                writer.table_act(
                    table_id=table.pk,
                    action={"type": "declare", "cards": cards},
                    expected_version=table.version,
                    user=players[seat],
                )
            elif clock.dealt_at(table, timezone.now()) >= clock.DECK_DEALT:
                _clock_step(table, game, seats)
            else:
                time.sleep(0.01)
        elif game.phase == "last_chance":
            _clock_step(table, game, seats)
        elif game.phase == "scored":
            if finished >= hands:
                return
            _clock_step(table, game, seats)  # the next hand
        elif game.phase == "finished":
            return
        elif game.phase == "bury":
            hand = engine.view(game, game.turn)["hand"]
            writer.table_act(
                table_id=table.pk,
                action={"type": "bury", "cards": rng.sample(hand, 8)},
                expected_version=table.version,
                user=players[game.turn],
            )
        elif game.phase == "play":
            if stop_after_plays is not None and finished == hands - 1 and plays >= stop_after_plays:
                return
            cards = engine.sample_play(game, game.turn, rng)
            writer.table_act(
                table_id=table.pk,
                action={"type": "play", "cards": cards},
                expected_version=table.version,
                user=players[game.turn],
            )
            plays += 1
            if Hand.objects.filter(match__table=table, finished_at__isnull=False).count() > finished:
                finished, plays = finished + 1, 0
        else:
            raise AssertionError(f"unexpected phase {game.phase}")


@pytest.fixture(scope="module")
def played(django_db_setup, django_db_blocker):
    """Two finished hands of a public match, committed once for the whole module."""
    with django_db_blocker.unblock(), override_settings(**FAST):
        players = [make_user(f"rp-{name}") for name in ("north", "east", "south", "west")]
        table = make_table(players[0], players=players)
        drive(table, players, hands=2)
        yield {
            "table": table,
            "players": players,
            "hands": list(Hand.objects.filter(match__table=table).order_by("number")),
        }
        Table.objects.filter(pk=table.pk).delete()
        for user in players:
            user.delete()


def _stored_tricks(hand):
    """Tricks as the write path logged them: (cards of each play, winner, points)."""
    tricks, current = [], []
    events = TableEvent.objects.filter(table=hand.match.table, seq__gte=hand.first_seq, seq__lte=hand.last_seq)
    for row in events.order_by("seq"):
        for event in row.events:
            if event["type"] == "played":
                current.append([event["seat"], event["cards"]])
            elif event["type"] == "trick_won":
                tricks.append((current, event["seat"], event["points"]))
                current = []
    return tricks


# --- the fold ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_both_hands_finished_with_declarations_in_the_log(played):
    hands = played["hands"]
    assert [h.number for h in hands] == [1, 2] and all(h.is_finished for h in hands)
    kinds = [row.action["type"] for row in TableEvent.objects.filter(table=played["table"]).order_by("seq")]
    assert kinds[:2] == ["start_match", "start_hand"]
    assert "declare" in kinds and kinds.count("deal") > 2  # catch-up deals before declarations


@pytest.mark.django_db
def test_folding_the_whole_log_reproduces_the_stored_snapshot(played):
    table = Table.objects.get(pk=played["table"].pk)
    actions = [row.action for row in TableEvent.objects.filter(table=table).order_by("seq")]
    assert actions[0]["type"] == "start_match"
    rules = replay.start_rules(actions[0])  # the table's rules, the window included
    assert replay.fold(replay.engine_actions(actions[1:]), rules).to_json() == table.state


@pytest.mark.django_db
@pytest.mark.parametrize("number", [1, 2])
def test_replay_reproduces_every_trick_and_the_stored_score(played, number):
    hand = Hand.objects.select_related("bury").get(match__table=played["table"], number=number)
    frames = matches.hand_frames(hand)

    assert frames[0].kind == "hand_started"
    dealt = [f for f in frames if f.kind == "card_dealt"]
    assert [f.info["n"] for f in dealt] == list(range(1, 101))
    assert [f.cards[0] for f in dealt] == hand.deck[:100]
    assert sum(dealt[-1].view["hand_counts"]) + sum(map(len, dealt[-1].view["declaration_areas"].values())) == 100

    declared = [f for f in frames if f.kind == "declared"]
    assert [(f.seat, f.cards) for f in declared] == [(d["seat"], d["cards"]) for d in hand.declarations]
    assert [f.kind for f in frames].count("flipped") == (1 if hand.flipped else 0)
    fixed = next(f for f in frames if f.kind == "trump_fixed")
    assert (fixed.seat, fixed.info["trump"]) == (hand.dealer, hand.trump)
    assert sorted(fixed.cards) == sorted(hand.bury.kitty) == sorted(hand.deck[100:])
    buried = next(f for f in frames if f.kind == "buried")
    assert buried.cards == hand.bury.cards

    # Every trick: its plays (as the full-trick frame shows them), winner and points.
    stored = _stored_tricks(hand)
    won = [i for i, f in enumerate(frames) if f.kind == "trick_won"]
    assert len(won) == len(stored) > 0
    for index, (plays, winner, points) in zip(won, stored):
        full, collected = frames[index - 1], frames[index]
        assert full.kind == "played" and full.view["trick"] == plays
        assert (collected.seat, collected.info["points"]) == (winner, points)
        assert collected.view["last_trick"] == {"plays": plays, "winner": winner, "points": points}
        assert collected.view["trick"] == []
    assert (
        sum(f.info["points"] for f in frames if f.kind == "trick_won" and f.seat % 2 != hand.dealer % 2)
        == hand.trick_points
    )

    last = frames[-1]
    assert last.kind == "hand_scored"
    result = last.info["result"]
    columns = {field.name for field in Hand._meta.concrete_fields}
    for name in (
        field.name for field in fields(engine.HandResult) if field.name in columns and field.name != "flipped"
    ):
        assert result[name] == getattr(hand, name), name
    assert result["buried"] == hand.bury.cards and result["kitty"] == hand.bury.kitty
    assert (result["flipped"] or "") == hand.flipped
    assert last.view["defender_points"] == hand.trick_points and last.view["penalties"] == hand.penalties
    assert all(len(cards) == 0 for cards in last.view["hands"].values())


@pytest.mark.django_db
def test_every_frame_shows_all_four_hands_and_the_points_at_that_moment(played):
    hand = played["hands"][0]
    frames = matches.hand_frames(hand)
    total = 0
    for frame in frames:
        assert set(frame.view["hands"]) == {"0", "1", "2", "3"}
        assert [len(frame.view["hands"][str(s)]) for s in range(4)] == frame.view["hand_counts"]
        assert frame.view["defender_points"] >= total  # points only ever grow within a hand
        total = frame.view["defender_points"]
    bury = frames.index(next(f for f in frames if f.kind == "buried"))
    assert frames[bury - 1].view["hand_counts"][hand.dealer] == 33
    assert frames[bury].view["hand_counts"][hand.dealer] == 25


def test_a_log_the_engine_refuses_does_not_fold():
    with pytest.raises(replay.ReplayError):
        replay.hand_frames([], [{"type": "start_hand", "seed": "x"}, {"type": "bury", "seat": 0, "cards": []}])


def test_a_stored_deal_expands_into_one_step_per_card():
    frames = replay.hand_frames(
        [], [{"type": "start_hand", "seed": "s"}, {"type": "deal", "upto": 7}, {"type": "deal", "upto": 9}]
    )
    assert [f.kind for f in frames] == ["hand_started"] + ["card_dealt"] * 9
    assert [f.view["dealt"] for f in frames] == list(range(10))


def _declaring_log(seed):
    """A hand's log in which every chance to declare or override is taken at once."""
    game, log = engine.Game.new(), [{"type": "start_hand", "seed": seed}]
    engine.apply(game, log[0])
    for upto in range(1, 101):
        engine.apply(game, {"type": "deal", "upto": upto})
        log.append({"type": "deal", "upto": upto})
        for seat in range(4):
            options = [
                cards
                for cards in engine.legal_declarations(game, seat)
                if not game.standing or game.standing["seat"] != seat
            ]
            if options:
                action = {"type": "declare", "seat": seat, "cards": options[-1]}
                engine.apply(game, action)
                log.append(action)
                break
    return log + [{"type": "fix_trump"}]


def test_declarations_and_overrides_are_steps_of_their_own():
    seed = next(s for s in range(200) if sum(a["type"] == "declare" for a in _declaring_log(s)) >= 2)
    frames = replay.hand_frames([], _declaring_log(seed))
    declared = [f for f in frames if f.kind == "declared"]
    assert len(declared) >= 2 and declared[0].info["overridden"] is None
    override = next(f for f in declared[1:] if f.info["overridden"] is not None)
    loser = override.info["overridden"]
    assert override.view["declaration_areas"][str(loser)] == []  # §3.3: back into the owner's hand
    assert override.view["declaration_areas"][str(override.seat)][-len(override.cards) :] == override.cards
    assert "flipped" not in [f.kind for f in frames]
    assert frames[-1].kind == "trump_fixed" and frames[-1].info["trump"] == declared[-1].info["trump"]


def test_with_no_declaration_the_kitty_card_is_turned_up_before_the_dealer_takes_the_kitty():
    frames = replay.hand_frames(
        [], [{"type": "start_hand", "seed": "quiet"}, {"type": "deal", "upto": 100}, {"type": "fix_trump"}]
    )
    flipped, fixed = frames[-2:]
    kitty = frames[0].view["kitty_original"]
    assert (flipped.kind, fixed.kind) == ("flipped", "trump_fixed")
    assert flipped.cards == [kitty[3]] and flipped.view["flipped"] == kitty[3]
    assert flipped.view["trump"] is None and flipped.view["hand_counts"] == [25, 25, 25, 25]
    assert fixed.view["trump"] == fixed.info["trump"] and fixed.seat == 0  # §3.5: nobody declared
    assert fixed.view["hand_counts"][0] == 33 and sorted(fixed.cards) == sorted(kitty)


# --- the page ----------------------------------------------------------------------------


def _page(user, hand, **params):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(reverse("hand_replay", args=[hand.pk]), params)


@pytest.mark.django_db
def test_replay_page_steps_through_frames_with_links(played):
    hand, viewer = played["hands"][0], make_user("viewer")
    frames = matches.hand_frames(hand)
    first = _page(viewer, hand)
    assert first.status_code == 200
    body = first.content.decode()
    assert "?step=1" in body and 'rel="next"' in body and 'rel="prev"' not in body

    step = next(i for i, f in enumerate(frames) if f.kind == "trick_won")
    page = _page(viewer, hand, step=step).content.decode()
    assert f"?step={step - 1}" in page and f"?step={step + 1}" in page
    assert f"?step={len(frames) - 1}" in page  # End
    for seat in range(4):  # all four hands, card by card
        codes = re.findall(r'data-card="([^"]+)"', page.split(f'id="hand-{seat}"')[1].split("</ul>")[0])
        assert codes == frames[step].view["hands"][str(seat)]

    last = _page(viewer, hand, step=10_000)
    assert last.status_code == 200 and 'rel="next"' not in last.content.decode()
    assert str(hand.defenders_score) in last.content.decode()
    declared = next(i for i, f in enumerate(frames) if f.kind == "declared")
    page = _page(viewer, hand, step=declared).content.decode()
    assert "declares trump" in page and "(declared, not fixed yet)" in page
    fragment = _page(viewer, hand, step=3, fragment=1).content.decode()
    assert "<html" not in fragment and 'id="replay-frame"' not in fragment and 'data-step="3"' in fragment


# --- moving by trick (games/history/steps.py) -------------------------------------------


@pytest.mark.django_db
def test_a_hands_frames_fall_into_the_deal_the_bury_each_trick_and_the_result(played):
    frames = matches.hand_frames(played["hands"][0])
    parts = steps.chapters(frames)
    assert [i for c in parts for i in range(c.first, c.last + 1)] == list(range(len(frames)))  # each frame once
    deal, bury, *tricks, result = parts
    assert (deal.kind, bury.kind, result.kind) == ("deal", "bury", "result")
    assert frames[deal.stop + 1].kind == "trump_fixed" and frames[bury.stop].kind == "buried"
    won = [f for f in frames if f.kind == "trick_won"]
    assert [c.trick_no for c in tricks] == list(range(1, len(won) + 1)) and {c.kind for c in tricks} == {"trick"}
    for chapter in tricks:  # a trick's stop: all four plays on the table, just before they are collected
        assert len(frames[chapter.stop].view["trick"]) == 4 and frames[chapter.stop + 1].kind == "trick_won"
    assert result.stop == len(frames) - 1 and frames[-1].kind == "hand_scored"
    assert steps.stops(frames) == [0, deal.stop, bury.stop, *(c.stop for c in tricks), result.stop]


def _link(page, rel):
    return int(re.search(rf'rel="{rel}" data-key="[^"]+" href="\?step=(\d+)"', page).group(1))


@pytest.mark.django_db
def test_the_replay_moves_by_trick_and_says_which(played):
    hand, viewer = played["hands"][0], make_user("trick-viewer")
    frames = matches.hand_frames(hand)
    tricks = {c.trick_no: c for c in steps.chapters(frames) if c.kind == "trick"}
    total = len(tricks)
    page = _page(viewer, hand, trick=7).content.decode()
    assert f'data-step="{tricks[7].stop}"' in page and f"Trick 7 of {total}" in page
    assert (_link(page, "prev"), _link(page, "next")) == (tricks[6].stop, tricks[8].stop)
    winner = played["players"][frames[tricks[7].last].seat].username
    assert f"{winner} wins it (" in page

    chinese = Client()
    chinese.force_login(viewer)
    chinese.cookies["django_language"] = "zh-hans"
    page = chinese.get(reverse("hand_replay", args=[hand.pk]), {"trick": 7}).content.decode()
    assert f"第 7 轮（共 {total} 轮）" in page

    deal = steps.chapters(frames)[0]
    page = _page(viewer, hand, step=5).content.decode()  # a single dealt card: inside the deal
    assert "The deal" in page and _link(page, "next") == deal.stop and _link(page, "prev") == 0
    assert '<details class="replay-fine" open>' in page and 'href="?step=6"' in page


@pytest.mark.django_db
def test_an_old_single_card_step_link_opens_the_same_position(played):
    hand, viewer = played["hands"][0], make_user("old-link-viewer")
    frames = matches.hand_frames(hand)
    third = next(c for c in steps.chapters(frames) if c.trick_no == 3)
    old = third.first + 1  # the second play of trick 3, as a link from before moving by trick named it
    page = _page(viewer, hand, step=old).content.decode()
    assert f'data-step="{old}"' in page and "Trick 3 of" in page
    trick = re.findall(r'class="replay-played[^"]*" data-seat="(\d)"', page)
    assert sorted(map(int, trick)) == sorted(seat for seat, _ in frames[old].view["trick"])  # two plays so far
    for seat in range(4):
        codes = re.findall(r'data-card="([^"]+)"', page.split(f'id="hand-{seat}"')[1].split("</ul>")[0])
        assert codes == frames[old].view["hands"][str(seat)]
    assert _link(page, "next") == third.stop  # forward: the trick whole


def _cards_in(html, cards):
    return {c for c in cards if re.search(rf"(?<![A-Za-z0-9]){c}(?![A-Za-z0-9])", html)}


@pytest.mark.django_db
def test_an_unfinished_hand_has_no_replay_and_leaks_nothing(settings):
    for name, value in FAST.items():
        setattr(settings, name, value)
    players = [make_user(f"run-{name}") for name in ("north", "east", "south", "west")]
    table = make_table(players[0], players=players)
    drive(table, players, hands=1, stop_after_plays=6)
    table = Table.objects.get(pk=table.pk)
    game = engine.Game.from_json(table.state)
    assert game.phase == "play"
    hand = Hand.objects.get(match__table=table)
    assert not hand.is_finished
    secret = set(game.kitty) | set(game.buried) | {c for seat in range(4) for c in game.hands[seat]}

    response = _page(players[1], hand)
    assert response.status_code == 404
    body = response.content.decode()
    assert _cards_in(body, secret) == set() and "data-card" not in body and hand.seed not in body
    assert _page(players[1], hand, step=50).status_code == 404

    match_page = Client()
    match_page.force_login(players[1])
    body = match_page.get(reverse("match_detail", args=[hand.match_id])).content.decode()
    assert reverse("hand_replay", args=[hand.pk]) not in body
    assert _cards_in(body, secret) == set() and hand.seed not in body and "data-card" not in body
    with pytest.raises(ValueError):
        matches.hand_actions(hand)


@pytest.mark.django_db
def test_private_table_replays_are_for_its_players_and_staff(played):
    hand = played["hands"][0]
    Table.objects.filter(pk=played["table"].pk).update(is_private=True)
    try:
        outsider, staff = make_user("outsider"), make_user("moderator")
        staff.is_staff = True
        staff.save()
        assert _page(outsider, hand).status_code == 404
        assert _page(played["players"][3], hand).status_code == 200
        assert _page(staff, hand).status_code == 200
    finally:
        Table.objects.filter(pk=played["table"].pk).update(is_private=False)
    assert _page(outsider, hand).status_code == 200  # public: any logged-in user
    anonymous = _page(None, hand)
    assert anonymous.status_code == 302 and reverse("login") in anonymous["Location"]
