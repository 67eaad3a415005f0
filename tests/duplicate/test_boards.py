"""Boards: reproducible from a seed, dealt by the engine's own start_hand (the step botmatch
plays its duplicate deals with), refused when malformed."""

import pytest

from games import engine
from games.boards.board import BOARD_LEVELS, Board, make_boards
from games.bots.match import fresh_hand

pytestmark = pytest.mark.events


def test_the_same_seed_gives_the_same_boards_and_another_seed_others():
    a, b = make_boards("club-night", 8), make_boards("club-night", 8)
    assert a == b
    assert [x.number for x in a] == list(range(1, 9))
    assert len({tuple(x.deck()) for x in a}) == 8
    assert make_boards("other", 8)[0].deck() != a[0].deck()
    assert all(x.dealer in range(4) and set(x.levels.values()) <= set(BOARD_LEVELS) for x in a)


def test_a_board_deals_its_deck_from_its_dealer_at_its_levels():
    board = Board(1, "b1", dealer=3, levels={"0": "7", "1": "Q"})
    game = board.game()
    assert game.deck == board.deck() == engine.shuffled_deck("b1")
    assert (game.phase, game.dealer, game.first, game.levels) == ("deal", 3, 3, {"0": "7", "1": "Q"})
    assert game.level == "Q"  # the dealer's team's (seats 1/3)
    engine.apply(game, {"type": "deal", "upto": 4})
    assert game.hands == [[board.deck()[1]], [board.deck()[2]], [board.deck()[3]], [board.deck()[0]]]


def test_botmatch_deals_its_duplicate_hands_with_the_same_step():
    board = Board(1, "same", dealer=2, levels={"0": "5", "1": "5"})
    assert fresh_hand("same", dealer=2, level="5").to_json() == board.game().to_json()


def test_a_board_plays_to_a_result_under_its_rules():
    import random

    from games.bots.match import play_hand

    rules = engine.preset_rules(next(iter(engine.PRESETS)))
    board = make_boards("rules", 1, rules)[0]
    game = board.game()
    result = play_hand(game, ["basic"] * 4, random.Random(1))
    assert game.rules == rules and result["dealer"] == board.dealer
    assert result["levels_before"] == dict(board.levels)


@pytest.mark.parametrize(
    "board",
    [
        {"dealer": 4, "levels": {"0": "2", "1": "2"}},
        {"dealer": "0", "levels": {"0": "2", "1": "2"}},
        {"dealer": 0, "levels": {"0": "2"}},
        {"dealer": 0, "levels": {"0": "2", "1": "1"}},
        {"dealer": 0, "levels": ["2", "2"]},
        "north",
    ],
)
def test_a_malformed_board_is_refused_and_changes_nothing(board):
    game = engine.Game.new()
    before = game.to_json()
    with pytest.raises(engine.Refusal):
        engine.apply(game, {"type": "start_hand", "seed": "x", "board": board})
    assert game.to_json() == before


def test_holdings_are_the_deal_from_the_dealer_on():
    board = make_boards("holdings", 1)[0]
    held, kitty = board.holdings()
    deck = board.deck()
    assert [len(held[seat]) for seat in range(4)] == [25, 25, 25, 25] and kitty == deck[100:]
    assert held[board.dealer][0] == deck[0]  # the dealer receives the first card (RULES §3.6)
    assert sorted([card for seat in range(4) for card in held[seat]] + kitty) == sorted(deck)
