"""RULES §5.4: following."""

import pytest

from games.engine import context, is_legal_follow

H7 = context("7", "H")


def legal(lead, hand, play, ctx=H7):
    ok, err = is_legal_follow(lead, hand, play, ctx)
    return ok, (err.code if err else None)


def test_count_and_possession():
    assert legal(["SK"], ["S3", "S4"], ["S3", "S4"]) == (False, "wrong_card_count")
    assert legal(["SK"], ["S3", "S4"], ["S5"]) == (False, "cards_not_in_hand")


def test_suit_first():
    assert legal(["SK"], ["S3", "HA"], ["HA"]) == (False, "must_follow_suit")
    assert legal(["SK"], ["S3", "HA"], ["S3"]) == (True, None)
    # level cards and 2s are trumps, not spades
    assert legal(["SK"], ["S7", "S2", "D4"], ["D4"]) == (True, None)
    assert legal(["H2"], ["S2", "D3"], ["D3"]) == (False, "must_follow_suit")


def test_short_in_suit_plays_all_then_anything():
    assert legal(["S9", "S9", "S8"], ["S3", "HA", "D4", "D4"], ["S3", "HA", "D4"]) == (True, None)
    assert legal(["S9", "S9", "S8"], ["S3", "HA", "D4", "D4"], ["HA", "D4", "D4"]) == (False, "must_follow_suit")


def test_pairs_must_be_played():
    assert legal(["S9", "S9"], ["S3", "S3", "SA"], ["SA", "S3"]) == (False, "must_play_pairs")
    assert legal(["S9", "S9"], ["S3", "S3", "SA"], ["S3", "S3"]) == (True, None)
    # a pair inside a tractor counts as a pair
    assert legal(["S9", "S9"], ["SQ", "SQ", "SJ", "SJ", "S3"], ["SQ", "S3"]) == (False, "must_play_pairs")


def test_throw_lead_pairs_up_to_the_lead_count():
    lead = ["SA", "SK", "SK", "S9", "S9"]  # two pairs + single
    hand = ["SQ", "SQ", "S3", "S3", "S4", "S4", "S5", "D6"]
    assert legal(lead, hand, ["SQ", "SQ", "S3", "S3", "S5"]) == (True, None)
    assert legal(lead, hand, ["SQ", "SQ", "S3", "S4", "S5"]) == (False, "must_play_pairs")
    # more pairs than needed is fine too
    assert legal(lead, hand, ["SQ", "SQ", "S3", "S3", "S4"]) == (True, None)


def test_tractor_must_be_played_when_held():
    lead = ["S9", "S9", "S8", "S8"]
    hand = ["SQ", "SQ", "SJ", "SJ", "S3", "S3", "D5"]
    assert legal(lead, hand, ["SQ", "SQ", "S3", "S3"]) == (False, "must_play_tractor")
    assert legal(lead, hand, ["SQ", "SQ", "SJ", "SJ"]) == (True, None)


def test_tractor_across_the_level_gap_in_trumps():
    lead = ["H4", "H4", "H3", "H3"]
    hand = ["H8", "H8", "H6", "H6", "S7", "S7", "D7", "D7"]
    assert legal(lead, hand, ["S7", "S7", "D7", "D7"]) == (False, "must_play_tractor")
    assert legal(lead, hand, ["H8", "H8", "H6", "H6"]) == (True, None)


def test_longer_held_tractor_split_to_serve_two():
    lead = ["S5", "S5", "S4", "S4", "S9", "S9", "S8", "S8"]  # two tractors of 2
    hand = ["SA", "SA", "SK", "SK", "SQ", "SQ", "SJ", "SJ", "S3", "S6"]
    assert legal(lead, hand, ["SA", "SA", "SK", "SK", "SQ", "SQ", "SJ", "SJ"]) == (True, None)
    assert legal(lead, hand, ["SA", "SA", "SK", "SK", "SQ", "SQ", "S3", "S6"]) == (False, "must_play_tractor")


def test_longest_tractor_first():
    lead = ["S5", "S5", "S4", "S4", "S3", "S3", "SA", "SA", "SK", "SK"]  # 3-tractor + 2-tractor
    hand = ["SQ", "SQ", "SJ", "SJ", "S10", "S10", "S8", "S6", "S6", "S4", "S3"]
    # holds a 3-tractor (Q J 10): must play it; the rest needs 2 more pairs but only 6 6 is left
    assert legal(lead, hand, ["SQ", "SQ", "SJ", "SJ", "S10", "S10", "S6", "S6", "S8", "S4"]) == (True, None)
    assert legal(lead, hand, ["SQ", "SQ", "SJ", "SJ", "S6", "S6", "S10", "S8", "S4", "S3"]) == (
        False,
        "must_play_tractor",
    )


def test_two_tractors_through_shared_position_in_trumps():
    # level 7 hearts: H7H7 S7S7 and D7D7 H2H2 are two disjoint tractors
    lead = ["HA", "HA", "HK", "HK", "HQ", "HQ", "HJ", "HJ"]
    hand = ["H7", "H7", "S7", "S7", "D7", "D7", "H2", "H2", "H3", "H4"]
    ok, _ = is_legal_follow(
        ["HA", "HA", "HK", "HK", "H9", "H9", "H8", "H8"], hand, ["H7", "H7", "S7", "S7", "D7", "D7", "H2", "H2"], H7
    )
    assert ok
    assert legal(lead, hand, ["H7", "H7", "S7", "S7", "D7", "D7", "H3", "H4"]) == (False, "must_play_pairs")


def test_no_suit_any_play():
    assert legal(["SK", "SK"], ["HA", "D3", "D4"], ["D3", "HA"]) == (True, None)
    assert legal(["SK"], ["H3", "D4"], ["H3"]) == (True, None)


@pytest.mark.parametrize("trump", ["NT", "S"])
def test_level_cards_follow_trump_leads(trump):
    ctx = context("7", trump)
    assert legal(["BJK"], ["D7", "D3"], ["D3"], ctx) == (False, "must_follow_suit")


# --- brute-force oracle -------------------------------------------------------------
from collections import Counter  # noqa: E402
from itertools import combinations, pairwise  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from games.engine import requirements, split  # noqa: E402

POOLS = {
    ("7", "H", "S"): ["S3", "S4", "S5", "S6", "S8", "S9", "S10", "SJ"],
    ("7", "H", "T"): ["H3", "H4", "HA", "S2", "H2", "S7", "D7", "H7", "SJK"],
    ("2", "NT", "T"): ["S2", "H2", "SJK", "BJK"],
}
# Codes on consecutive positions (one per position), to draw tractors from.
CHAINS = {
    ("7", "H", "S"): [["S3", "S4", "S5", "S6", "S8", "S9", "S10", "SJ"]],
    ("7", "H", "T"): [["H3", "H4"], ["HA", "S2", "H2", "S7", "H7", "SJK"], ["HA", "S2", "H2", "D7", "H7", "SJK"]],
    ("2", "NT", "T"): [["S2", "SJK", "BJK"], ["H2", "SJK", "BJK"]],
}
OTHERS = ["D3", "D4", "C5", "C6", "D8", "D9", "C8", "C9", "D10", "DJ", "C10", "CJ"]


def oracle_structure(cards, ctx, reqs, pairs_led):
    """Best (tractors met, pairs) reading of `cards`, by brute force over pair codes."""
    pair_codes = [c for c, n in Counter(cards).items() if n >= 2]

    def is_tractor(codes):
        ps = sorted(ctx.pos[c] for c in codes)
        return all(b - a == 1 for a, b in pairwise(ps))

    def best(i, free):
        if i == len(reqs):
            return ()
        options = [(False,) + best(i + 1, free)]
        for combo in combinations(sorted(free), reqs[i]):
            if is_tractor(combo):
                options.append((True,) + best(i + 1, free - set(combo)))
        return max(options)

    return best(0, frozenset(pair_codes)), min(pairs_led, len(pair_codes))


def oracle_legal(lead, hand, play, ctx):
    n = len(lead)
    lc = ctx.cls[lead[0]]
    suit = [c for c in hand if ctx.cls[c] == lc]
    in_play = [c for c in play if ctx.cls[c] == lc]
    if len(in_play) < min(n, len(suit)):
        return False
    if len(suit) <= n:
        return True
    reqs, pairs_led = requirements(split(lead, ctx))
    score = lambda cs: oracle_structure(cs, ctx, reqs, pairs_led)  # noqa: E731
    return score(in_play) == max(score(list(c)) for c in set(combinations(sorted(suit), n)))


@st.composite
def follow_case(draw):
    """A lead and a hand from a small pool, biased towards pairs (so tractors happen)."""
    key = draw(st.sampled_from(sorted(POOLS)))
    copies = Counter({c: 2 for c in POOLS[key]})

    def take(max_codes):
        cards = []
        for c in draw(st.lists(st.sampled_from(sorted(copies)), max_size=max_codes, unique=True)):
            k = min(copies[c], draw(st.sampled_from([1, 2, 2])))
            copies[c] -= k
            cards += [c] * k
        return cards

    def tractor():
        chain = draw(st.sampled_from(CHAINS[key]))
        n = draw(st.integers(2, 3))
        start = draw(st.integers(0, len(chain) - 2))
        cards = []
        for c in chain[start : start + n]:
            if copies[c] == 2:
                copies[c] = 0
                cards += [c, c]
        return cards

    lead = (tractor() if draw(st.booleans()) else []) + take(2)
    lead = lead or [next(c for c in sorted(copies) if copies[c])]
    hand = (tractor() if draw(st.booleans()) else []) + take(5)
    hand += draw(st.lists(st.sampled_from(OTHERS), max_size=3, unique=True))
    if len(hand) < len(lead):
        hand += [c for c in OTHERS if c not in hand][: len(lead) - len(hand)]
    # Half the time play only led-suit cards, where the structure duties bite.
    in_suit = [i for i, c in enumerate(hand) if c not in OTHERS]
    choices = in_suit if len(in_suit) >= len(lead) and draw(st.booleans()) else range(len(hand))
    idx = draw(st.lists(st.sampled_from(choices), min_size=len(lead), max_size=len(lead), unique=True))
    return key, lead, hand, [hand[i] for i in idx]


@settings(max_examples=300, deadline=None)
@given(follow_case())
def test_follow_agrees_with_brute_force(case):
    (level, trump, _), lead, hand, play = case
    ctx = context(level, trump)
    ok, err = is_legal_follow(lead, hand, play, ctx)
    assert ok == oracle_legal(lead, hand, play, ctx), (lead, hand, play, err)
