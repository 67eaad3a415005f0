"""RULES §5.5: who wins a trick; §5.6 points."""

from games.engine import context, trick_points, trick_winner

H7 = context("7", "H")


def winner(*plays, ctx=H7):
    return trick_winner([[s, c] for s, c in plays], ctx)


def test_higher_single_of_led_suit_wins_and_off_suit_discards_never_win():
    assert winner((0, ["SK"]), (1, ["SA"]), (2, ["DA"]), (3, ["S3"])) == 1


def test_ruff_beats_and_overruff():
    assert winner((0, ["SA"]), (1, ["H3"]), (2, ["H4"]), (3, ["SK"])) == 2
    assert winner((0, ["SA"]), (1, ["S7"]), (2, ["D7"]), (3, ["H2"])) == 1  # equal: first


def test_equal_cards_first_played_wins():  # RULES §2.5
    assert winner((0, ["SA"]), (1, ["SA"]), (2, ["S3"]), (3, ["S4"])) == 0


def test_pair_lead_needs_a_pair():
    assert winner((0, ["S9", "S9"]), (1, ["SA", "SK"]), (2, ["S10", "S10"]), (3, ["S3", "S3"])) == 2
    assert winner((0, ["S9", "S9"]), (1, ["H3", "H4"]), (2, ["S3", "S3"]), (3, ["D3", "D4"])) == 0
    assert winner((0, ["S9", "S9"]), (1, ["H3", "H3"]), (2, ["H4", "H4"]), (3, ["SA", "SA"])) == 2


def test_tractor_lead_needs_a_tractor_of_same_length():
    lead = ["S9", "S9", "S8", "S8"]
    assert (
        winner((0, lead), (1, ["SA", "SA", "SQ", "SQ"]), (2, ["S3", "S3", "S4", "S4"]), (3, ["SK", "SK", "SQ", "SQ"]))
        == 3
    )
    # a trump pair pair (not a tractor) does not ruff a tractor
    assert (
        winner((0, lead), (1, ["HA", "HA", "H3", "H3"]), (2, ["D3"] * 2 + ["D4"] * 2), (3, ["C3", "C4", "C5", "C6"]))
        == 0
    )


def test_throw_cannot_be_beaten_in_its_suit_but_ruffs_may():
    lead = ["SA", "SK", "SK"]
    assert winner((0, lead), (1, ["SQ", "SQ", "S3"]), (2, ["D3", "D4", "D5"]), (3, ["S4", "S5", "S6"])) == 0
    assert winner((0, lead), (1, ["SQ", "SQ", "S3"]), (2, ["H3", "H3", "H4"]), (3, ["H5", "H6", "H8"])) == 2


def test_seed_examples():  # RULES §5.5 seed examples, ♥ trump, level 7
    # trump 9 9 8 8 6 2 ruffs A K 5 5 4 4 but not A A 5 5 4 4
    ruff = ["H9", "H9", "H8", "H8", "H6", "S2"]
    assert winner((0, ["SA", "SK", "S5", "S5", "S4", "S4"]), (1, ruff)) == 1
    assert winner((0, ["SA", "SA", "S5", "S5", "S4", "S4"]), (1, ruff)) == 0
    # over 5 4 4: 8 8 4 beats 9 6 6; over 4 5 6: it does not (singles compared)
    assert winner((0, ["S5", "S4", "S4"]), (1, ["H9", "H6", "H6"]), (2, ["H8", "H8", "H4"])) == 2
    assert winner((0, ["S4", "S5", "S6"]), (1, ["H9", "H6", "H6"]), (2, ["H8", "H8", "H4"])) == 1


def test_ruff_with_longer_tractor_split_and_largest_tractor_compared():
    lead = ["S9", "S9", "S8", "S8", "S5", "S5", "S4", "S4"]  # two 2-tractors
    four = ["H6", "H6", "H5", "H5", "H4", "H4", "H3", "H3"]
    two_and_two = ["HA", "HA", "HK", "HK", "H9", "H9", "H8", "H8"]
    assert winner((0, lead), (1, four), (2, two_and_two)) == 2
    assert winner((0, lead), (1, two_and_two), (2, four)) == 1


def test_trump_lead_followed_by_non_trump_cannot_win():
    assert winner((0, ["H3"]), (1, ["SA"]), (2, ["H4"]), (3, ["S7"])) == 3


def test_no_trump_lead_of_jokers():
    nt = context("7", "NT")
    assert winner((0, ["SA"]), (1, ["S7"]), (2, ["BJK"]), (3, ["SK"]), ctx=nt) == 2


def test_partial_trick_winner():
    assert winner((0, ["SK"]), (1, ["H3"])) == 1


def test_points():
    assert trick_points([[0, ["S5", "SK"]], [1, ["D10", "C3"]]]) == 25


# --- brute-force oracle for the value of a play (RULES §5.5) -------------------------
from collections import Counter  # noqa: E402
from itertools import combinations, pairwise  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from games.engine import requirements, split  # noqa: E402
from games.engine.tricks import play_value  # noqa: E402

TRUMPS = ["H3", "H4", "H5", "H6", "H8", "HA", "S2", "H2", "S7", "D7", "H7", "SJK", "BJK"]


def oracle_value(cards, ctx, reqs, pairs_led):
    """Best 'largest component of the lead's largest kind' over readings that match."""
    pair_codes = sorted(c for c, n in Counter(cards).items() if n >= 2)
    if len(pair_codes) < pairs_led:
        return None
    if not reqs:
        if pairs_led:
            return max(ctx.pos[c] for c in pair_codes)
        return max(ctx.pos[c] for c in cards)

    def tractors(free, n):
        for combo in combinations(sorted(free), n):
            ps = sorted(ctx.pos[c] for c in combo)
            if all(b - a == 1 for a, b in pairwise(ps)):
                yield combo, ps[-1]

    def readings(i, free):
        if i == len(reqs):
            yield []
            return
        for combo, top in tractors(free, reqs[i]):
            for rest in readings(i + 1, free - set(combo)):
                yield [(reqs[i], top)] + rest

    tops = [max(t for n, t in r if n == reqs[0]) for r in readings(0, frozenset(pair_codes))]
    return max(tops) if tops else None


@st.composite
def ruff_case(draw):
    lead = draw(
        st.sampled_from(
            [
                ["S5", "S4", "S4"],
                ["S9", "S9", "S8", "S8"],
                ["SA", "S9", "S9", "S8", "S8"],
                ["S9", "S9", "S8", "S8", "S4", "S4", "S3", "S3"],
                ["SA", "SK", "SQ"],
                ["S6", "S6", "S5", "S5", "S4", "S4"],
                ["SQ", "SQ", "S3", "S3"],
            ]
        )
    )
    copies = Counter({c: 2 for c in TRUMPS})
    ruff = []
    while len(ruff) < len(lead):
        c = draw(st.sampled_from(sorted(c for c in copies if copies[c])))
        k = min(copies[c], len(lead) - len(ruff), draw(st.sampled_from([1, 2, 2])))
        copies[c] -= k
        ruff += [c] * k
    return lead, ruff


@settings(max_examples=300, deadline=None)
@given(ruff_case())
def test_ruff_value_agrees_with_brute_force(case):
    lead, ruff = case
    reqs, pairs_led = requirements(split(lead, H7))
    assert play_value(ruff, H7, reqs, pairs_led) == oracle_value(ruff, H7, reqs, pairs_led), (lead, ruff)
