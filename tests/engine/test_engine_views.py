"""RULES §9: what every player sees."""

import json
import random

from games.engine import Game, apply, points, sample_play, view


def game_at(phase, seed="v"):
    rng = random.Random(1)
    g = Game.new()
    apply(g, {"type": "start_hand", "seed": seed})
    if phase == "deal":
        apply(g, {"type": "deal", "upto": 40})
        return g
    apply(g, {"type": "deal", "upto": 100})
    apply(g, {"type": "fix_trump"})
    if phase == "bury":
        return g
    apply(g, {"type": "bury", "seat": g.dealer, "cards": g.hands[g.dealer][:8]})
    if phase == "play":
        for _ in range(5):
            apply(g, {"type": "play", "seat": g.turn, "cards": sample_play(g, g.turn, rng)})
        return g
    while g.phase == "play":
        apply(g, {"type": "play", "seat": g.turn, "cards": sample_play(g, g.turn, rng)})
    return g


KEYS = {
    "seat",
    "phase",
    "hand_no",
    "levels",
    "level",
    "dealer",
    "trump",
    "dealt",
    "hand",
    "hand_counts",
    "declaration_areas",
    "standing",
    "declarations",
    "flipped",
    "kitty",
    "turn",
    "leader",
    "trick",
    "last_trick",
    "defender_points",
    "penalties",
    "last_failed_throw",
    "result",
    "winner",
    "tricks_played",
    "point_cards",
    "can_declare",
}


def test_view_keys_and_json():
    for phase in ("deal", "bury", "play", "scored"):
        g = game_at(phase)
        for seat in (None, 0, 1, 2, 3):
            v = view(g, seat)
            assert set(v) == KEYS
            json.dumps(v)


def test_own_hand_only_sorted():  # §9, §2.6
    g = game_at("play")
    for seat in range(4):
        v = view(g, seat)
        assert v["hand"] == g.ctx.sort(g.hands[seat])
        text = json.dumps({k: v[k] for k in v if k not in ("hand",)})
        for other in range(4):  # no other seat's hand travels anywhere in the view
            assert other == seat or json.dumps(g.ctx.sort(g.hands[other])) not in text
        assert v["hand_counts"] == [len(h) for h in g.hands]
    assert view(g, None)["hand"] == []


def test_no_undealt_cards_during_deal():  # §9
    g = game_at("deal")
    v = view(g, 0)
    assert v["hand"] == g.ctx.sort(g.hands[0]) and v["dealt"] == 40
    assert "deck" not in v and "hands" not in v


def test_kitty_only_for_the_dealer_until_scored():  # §4.1, §6.3, §9
    g = game_at("bury")
    d = g.dealer
    assert view(g, d)["kitty"] == g.kitty
    assert all(view(g, s)["kitty"] is None for s in (None, *[s for s in range(4) if s != d]))
    g = game_at("play")
    assert view(g, g.dealer)["kitty"] == g.buried
    assert all(view(g, s)["kitty"] is None for s in (None, (g.dealer + 1) % 4))
    g = game_at("scored")
    assert all(view(g, s)["kitty"] == g.buried for s in (None, 0, 1, 2, 3))
    assert view(g, None)["result"] == g.result


def test_declaration_areas_public():  # §3.3, §9
    g = game_at("deal")
    g.hands[2].append("H2")
    apply(g, {"type": "declare", "seat": 2, "cards": ["H2"]})
    for seat in (None, 0, 1, 3):
        v = view(g, seat)
        assert v["declaration_areas"]["2"] == ["H2"] and v["standing"]["seat"] == 2


def test_can_declare_only_own():
    g = game_at("deal")
    g.hands[1] += ["BJK", "BJK"]
    assert ["BJK", "BJK"] in view(g, 1)["can_declare"]
    assert view(g, None)["can_declare"] == []


def test_reveal_adds_everything():
    g = game_at("play")
    v = view(g, None, reveal=True)
    assert v["hands"] == {str(s): g.ctx.sort(g.hands[s]) for s in range(4)}
    assert v["buried"] == g.buried and v["kitty_original"] == g.kitty


def test_new_game_view():
    v = view(Game.new(), 0)
    assert v["phase"] == "ready" and v["hand"] == [] and v["hand_counts"] == [0, 0, 0, 0]


def test_view_context_is_the_hands_own_after_scoring_and_the_standing_before_trump():
    import random

    from games.engine import Game, apply, context, sample_play, view, view_context

    g = Game.new()
    apply(g, {"type": "start_hand", "seed": "ctx"})
    apply(g, {"type": "deal", "upto": 100})
    g.standing = {"seat": 1, "cards": ["H2"], "strength": 1, "trump": "H"}  # §3.3, display only
    assert view_context(view(g, 0)) is context("2", "H") is g.ctx
    assert view_context(None) is None
    for seed in range(20):  # a scored hand after which the dealer's level moved on (§8)
        g = Game.new()
        apply(g, {"type": "start_hand", "seed": f"ctx-{seed}"})
        apply(g, {"type": "deal", "upto": 100})
        apply(g, {"type": "fix_trump"})
        apply(g, {"type": "bury", "seat": g.dealer, "cards": g.hands[g.dealer][:8]})
        rng = random.Random(seed)
        while g.phase == "play":
            apply(g, {"type": "play", "seat": g.turn, "cards": sample_play(g, g.turn, rng)})
        v = view(g, 0)
        if v["level"] != g.result["level"]:
            assert view_context(v) is context(g.result["level"], g.result["trump"])
            return
    raise AssertionError("no hand moved the dealer's level")


def test_point_cards_are_the_counting_cards_each_team_won():  # §1.2, §7.1, §9
    g = game_at("scored")
    for seat in (None, 0, 1, 2, 3):
        won = view(g, seat)["point_cards"]
        expected = [[], []]
        for trick in g.tricks:
            cards = [c for _seat, played in trick["plays"] for c in played]
            expected[trick["winner"] % 2] += [c for c in cards if c[1:] in ("5", "10", "K")]
        assert won == expected
    # With the buried kitty's points, the hand's 200 (two decks of 5s, 10s and Ks, §7.2).
    assert sum(points(cards) for cards in won) + points(g.buried) == 200
