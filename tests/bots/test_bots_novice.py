"""The novice bot (games/bots/novice.py): a beginner's habits and mistakes, every choice
legal and repeatable from its seed. Legality over whole hands and the hidden-card swap
are in tests/bots/test_bots.py with the other levels."""

import random
from types import SimpleNamespace

from django.core.management import call_command

from games import bots, engine
from games.bots import match, novice
from games.bots.observation import observe
from tests.bots.test_bots import bury_hand, play_state, random_game

TRUMPS = engine.context("2", "S")  # the trump context of play_state: level 2, ♠ trump


class Fixed(random.Random):
    """A generator whose `random()` draws are `values` in turn, again and again (its other
    draws, choices and shuffles, are seeded ones). The novice's first draw of a play
    decides a slip (below SLIP), a second one a rare habit: (0.99,) never leaves the
    usual habit, (0.99, 0.0) takes the rare one, (0.0,) slips."""

    getrandbits = random.Random.getrandbits  # choices and shuffles stay random

    def __init__(self, *values: float) -> None:
        super().__init__(0)
        self.values = values
        self.drawn = 0

    def random(self) -> float:
        self.drawn += 1
        return self.values[(self.drawn - 1) % len(self.values)]


def habit(g, *draws):
    return bots.decide(observe(g, g.turn), "novice", Fixed(*(draws or (0.99,))))["cards"]


# --- habits -------------------------------------------------------------------------------
def test_leads_its_highest_side_suit_single_aces_first():
    hands = {0: ["HA", "HA", "HK", "DK", "D3", "CA", "C4", "S3"], 1: ["H3"], 2: ["H4"], 3: ["H5"]}
    # Two aces: the one of the longer suit (♥), alone though it holds the pair.
    assert habit(play_state(hands, dealer=0)) == ["HA"]
    # Now and then a pair instead (its highest), never a throw.
    assert habit(play_state(hands, dealer=0), 0.99, 0.0) == ["HA", "HA"]


def test_with_only_trumps_it_leads_its_highest_trump():
    assert habit(play_state({0: ["S3", "S9", "H2", "SJK"], 1: ["H3"], 2: ["H4"], 3: ["H5"]}, dealer=0)) == ["SJK"]


def test_follows_with_its_lowest_card_even_when_it_could_win():
    # Seat 1 leads ♥10; seat 0, last, holds the ♥A that would take 10 points: plays ♥4.
    g = play_state(
        {0: ["HA", "H4", "H9", "D3"], 1: ["D6"], 2: ["D9"], 3: ["C8"]},
        trick=[(1, ["H10"]), (2, ["H3"]), (3, ["H6"])],
        dealer=1,
    )
    assert habit(g) == ["H4"]
    assert bots.decide(observe(g, 0), "basic")["cards"] == ["HA"]  # where basic wins it


def test_ruffs_its_partners_winning_trick_with_its_lowest_trump():
    # Partner (seat 2) wins with ♥A; seat 0, void in ♥, trumps it anyway, with the ♠3.
    g = play_state(
        {0: ["S3", "S9", "BJK", "D3", "C9"], 1: ["D6"], 2: ["D9"], 3: ["C8"]},
        trick=[(1, ["H6"]), (2, ["HA"]), (3, ["H4"])],
        dealer=1,
    )
    assert habit(g) == ["S3"]
    assert not TRUMPS.is_trump(bots.decide(observe(g, 0), "basic")["cards"][0])  # basic does not


def test_seldom_gives_points_to_a_partner_who_is_winning():
    g = play_state(
        {0: ["HK", "H6", "H10", "D3"], 1: ["D6"], 2: ["D9"], 3: ["C8"]},
        trick=[(1, ["H3"]), (2, ["HA"]), (3, ["H4"])],
        dealer=1,
    )
    assert habit(g) == ["H6"]  # usually its lowest
    assert habit(g, 0.99, 0.0) == ["H10"]  # now and then the points (the lower ten-pointer)


def test_pair_lead_is_followed_by_the_lowest_legal_pair():
    g = play_state(
        {0: ["H5", "H5", "H9", "H9", "HJ", "D3"], 1: ["D6", "D6"], 2: ["D9", "D9"], 3: ["C8", "C8"]},
        trick=[(3, ["HQ", "HQ"])],
        dealer=3,
    )
    assert habit(g) == ["H5", "H5"]  # a pair it must show (§5.4), and its lowest


def test_buries_its_lowest_cards_points_and_all():
    g = play_state({0: bury_hand()}, dealer=0)
    g.phase, g.turn, g.buried = "bury", 0, None
    cards = habit(g)
    # The 8 lowest side cards by rank, suits and voids ignored (equal ranks: display order).
    assert sorted(cards) == sorted(["C3", "D4", "D4", "C6", "D6", "H7", "D7", "H8"])
    engine.apply(g, {"type": "bury", "seat": 0, "cards": cards})


def test_buries_a_five_and_keeps_a_short_suit_where_basic_does_the_opposite():
    hand = bury_hand()
    hand[hand.index("H7")] = "H5"  # a point card among the lowest
    g = play_state({0: hand}, dealer=0)
    g.phase, g.turn, g.buried = "bury", 0, None
    mine, basics = habit(g), bots.decide(observe(g, 0), "basic")["cards"]
    assert "H5" in mine and {"C8", "C9", "CQ"}.isdisjoint(mine)  # ♣ left short, not void
    assert "H5" not in basics and {"C3", "C6", "C8", "C9", "CQ"} <= set(basics)


def test_declares_the_first_level_card_of_a_suit_it_holds_a_few_of():
    def obs(hand, can_declare, standing=None, phase="deal"):
        return SimpleNamespace(hand=hand, can_declare=can_declare, standing=standing, phase=phase, level="7")

    three_hearts = ("H7", "H3", "HK", "D9", "C5")
    assert bots.decide_declaration(obs(three_hearts, (("H7",),)), "novice") == ["H7"]
    # Two spades and the small joker (no spade, though its code starts with S): not yet.
    assert bots.decide_declaration(obs(("S7", "S3", "SJK", "H4", "C5"), (("S7",),)), "novice") is None
    # Someone declared: a beginner does not override, even holding the pair.
    standing = (2, ("S7",), 1, "S")
    assert bots.decide_declaration(obs((*three_hearts, "H7"), (("H7", "H7"),), standing), "novice") is None
    # The last look with nothing declared: any suit; never the jokers' no-trump.
    weak = ("H7", "SJK", "SJK", "C5")
    assert bots.decide_declaration(obs(weak, (("H7",), ("SJK", "SJK")), phase="last_chance"), "novice") == ["H7"]
    assert bots.decide_declaration(obs(weak, (("SJK", "SJK"),), phase="last_chance"), "novice") is None


# --- mistakes, legal ones -----------------------------------------------------------------------
def test_a_slip_is_a_random_legal_play_and_never_a_throw():
    unusual = 0
    for i in range(40):
        g = random_game(f"slip{i}", stop_after=4 * (i % 20))  # at a trick's first play
        assert not g.trick
        cards = habit(g, 0.0)
        assert bots.is_legal(observe(g, g.turn), {"type": "play", "seat": g.turn, "cards": cards})
        assert len(engine.split(cards, g.play_context())) == 1  # a single, a pair or a tractor
        unusual += cards != habit(g)
        engine.apply(g, {"type": "play", "seat": g.turn, "cards": cards})
    assert unusual > 25  # mostly not the habitual lead


def test_slips_and_rare_habits_come_at_their_rates():
    """Over whole hands the novice leaves its usual habit in about one play of eight (slips,
    and now and then a pair lead or points for its partner): the plays that differ from
    its slip-free choice in the same position."""
    slips = plays = 0
    for i in range(6):
        g = match.fresh_hand(f"rate{i}", dealer=i % 4, level="5")
        match.deal_and_fix(g, ["novice"] * 4)
        rng = random.Random(i)
        while g.phase in ("bury", "play"):
            obs = observe(g, g.turn)
            action = bots.decide(obs, "novice", rng)
            if obs.phase == "play" and len(engine.legal_plays(g, g.turn, limit=2)) > 1:
                plays += 1
                slips += action["cards"] != novice.decide_play(obs, Fixed(0.99))
            engine.apply(g, action)
    assert plays > 300
    assert 0.06 < slips / plays < 0.25


# --- repeatable -------------------------------------------------------------------------------
def test_the_same_seed_plays_the_same_hand():
    def played(seed):
        g = match.fresh_hand("same", dealer=2, level="9")
        match.play_hand(g, ["novice", "basic", "novice", "random"], random.Random(seed))
        return g.result, [t["plays"] for t in g.tricks]

    assert played(5) == played(5)
    assert played(5) != played(6)  # the seed does matter: the slips move


def test_botmatch_plays_novice_against_basic(capsys):
    call_command("botmatch", a="novice", b="basic", deals=2, seed="nb", seconds=60)
    out = capsys.readouterr().out
    assert "botmatch A=novice B=basic seed=nb: 2 deal pairs (4 hands)" in out
    assert "levels/hand for A: " in out
    assert "decision time novice: p50 " in out and "decision time basic: p50 " in out
