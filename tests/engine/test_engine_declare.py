"""RULES §3: declaring trump, overriding, self-reinforce, the flip, the dealer."""

import pytest

from games.engine import Game, Refusal, apply, declaration_of, legal_declarations


def first_hand(seed="d"):
    g = Game.new()
    apply(g, {"type": "start_hand", "seed": seed})
    return g


def give(g, seat, *cards):
    """Put cards into a seat's hand (tests control the deal)."""
    g.hands[seat] += list(cards)


def declare(g, seat, *cards):
    return apply(g, {"type": "declare", "seat": seat, "cards": list(cards)})


def refused(g, seat, *cards):
    before = g.to_json()
    with pytest.raises(Refusal) as e:
        declare(g, seat, *cards)
    assert g.to_json() == before
    return e.value.code


def test_strengths():  # RULES §3.1
    assert declaration_of(["H2"], "2") == (1, "H")
    assert declaration_of(["H2", "H2"], "2") == (2, "H")
    assert declaration_of(["SJK", "SJK"], "2") == (3, "NT")
    assert declaration_of(["BJK", "BJK"], "2") == (4, "NT")
    assert declaration_of(["SJK"], "2") is None
    assert declaration_of(["SJK", "BJK"], "2") is None
    assert declaration_of(["H2", "D2"], "2") is None
    assert declaration_of(["D2"], "5") is None


def test_override_only_when_stronger_and_cards_move_between_hand_and_area():  # §3.2, §3.3
    g = first_hand()
    give(g, 1, "H2")
    give(g, 3, "S2", "S2", "D2")
    declare(g, 1, "H2")
    assert g.areas[1] == ["H2"] and "H2" not in g.hands[1]
    assert refused(g, 3, "D2") == "declaration_too_weak"
    events = declare(g, 3, "S2", "S2")
    assert [e["type"] for e in events] == ["declared", "declaration_overridden"]
    assert g.areas[1] == [] and "H2" in g.hands[1]
    assert g.areas[3] == ["S2", "S2"]
    assert g.standing["strength"] == 2 and g.standing["trump"] == "S"


def test_self_reinforce_only_by_the_declarer_while_standing():  # §3.2
    g = first_hand()
    give(g, 1, "H2", "H2")
    give(g, 3, "H2")  # impossible in a real deal (3 copies) but tests the rule
    declare(g, 1, "H2")
    assert refused(g, 3, "H2") == "declaration_too_weak"  # nobody else reinforces
    events = declare(g, 1, "H2")
    assert events[0]["reinforce"] is True and events[0]["strength"] == 2
    assert g.areas[1] == ["H2", "H2"] and g.standing["cards"] == ["H2", "H2"]


def test_partner_cannot_reinforce_but_overridden_cannot_either():  # §3.2
    g = first_hand()
    give(g, 1, "H2", "H2")
    give(g, 3, "C2")
    give(g, 0, "S2", "S2")
    declare(g, 1, "H2")
    assert refused(g, 3, "C2") == "declaration_too_weak"
    declare(g, 0, "S2", "S2")
    assert refused(g, 1, "H2") == "declaration_too_weak"


def test_self_override():  # §3.2
    g = first_hand()
    give(g, 2, "C2", "SJK", "SJK")
    declare(g, 2, "C2")
    declare(g, 2, "SJK", "SJK")
    assert g.standing["seat"] == 2 and g.standing["trump"] == "NT"
    assert g.areas[2] == ["SJK", "SJK"] and "C2" in g.hands[2]


def test_bad_declarations():
    g = first_hand()
    give(g, 0, "SJK", "H3", "BJK")
    assert refused(g, 0, "SJK") == "not_a_declaration"
    assert refused(g, 0, "H3") == "not_a_declaration"
    assert refused(g, 0, "SJK", "BJK") == "not_a_declaration"
    assert refused(g, 0, "BJK", "BJK") == "cards_not_in_hand"


def test_legal_declarations_lists_the_reinforcement():
    g = first_hand()
    g.hands[1] = ["H2", "H2", "S2", "SJK", "SJK", "C5"]
    assert sorted(legal_declarations(g, 1)) == [["H2"], ["H2", "H2"], ["S2"], ["SJK", "SJK"]]
    declare(g, 1, "H2")
    # the reinforcement is the single added card; other singles are too weak now
    assert sorted(legal_declarations(g, 1)) == [["H2"], ["SJK", "SJK"]]
    # Another seat can only override with a pair now (§3.2); its single level card is too weak.
    g.hands[2] = ["D2", "D2", "C2", "BJK", "BJK", "S5"]
    assert sorted(legal_declarations(g, 2)) == [["BJK", "BJK"], ["D2", "D2"]]


def deal_all(g):
    apply(g, {"type": "deal", "upto": 100})


def test_first_hand_dealer_is_the_standing_declarer_and_areas_return():  # §3.4, §3.5
    g = first_hand("x1")
    deal_all(g)
    assert g.phase == "last_chance"
    g.hands[3].append("D2")  # make sure seat 3 can declare in the window
    declare(g, 3, "D2")
    events = apply(g, {"type": "fix_trump"})
    assert g.trump == "D" and g.dealer == 3 and g.phase == "bury" and g.turn == 3
    assert [e["type"] for e in events] == ["trump_fixed", "kitty_taken"]
    assert g.areas == [[], [], [], []]
    assert len(g.hands[3]) == 34 and "D2" in g.hands[3]  # 25 + the extra D2 + kitty


def test_flip_when_nobody_declared():  # §3.4, §3.5
    g = first_hand("x2")
    deal_all(g)
    events = apply(g, {"type": "fix_trump"})
    fourth = g.kitty[3]
    assert events[0] == {"type": "kitty_flipped", "card": fourth}
    assert g.flipped == fourth
    assert g.trump == ("NT" if fourth in ("SJK", "BJK") else fourth[0])
    assert g.dealer == 0 and len(g.hands[0]) == 33
    # the flip is final: no declaring after it
    assert refused(g, 1, "H2") == "wrong_phase"


def test_later_hand_dealer_fixed_before_deal():  # §3.5, §3.6
    g = first_hand("x3")
    deal_all(g)
    apply(g, {"type": "fix_trump"})
    g2 = Game.from_json(g.to_json())
    g2.phase, g2.result = "scored", {"next_dealer": 1}
    apply(g2, {"type": "start_hand", "seed": "next"})
    assert g2.dealer == 1 and g2.first == 1 and g2.deal_order()[0][0] == 1
    g2.hands[2].append("D2")
    declare(g2, 2, "D2")
    apply(g2, {"type": "deal", "upto": 100})
    apply(g2, {"type": "fix_trump"})
    assert g2.dealer == 1 and g2.trump == "D"


def test_declaring_outside_the_deal_refused():
    g = Game.new()
    with pytest.raises(Refusal) as e:
        apply(g, {"type": "declare", "seat": 0, "cards": ["H2"]})
    assert e.value.code == "wrong_phase"
