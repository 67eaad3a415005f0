"""The decks are unpredictable, unless a test or a benchmark fixes them (GAMES_DECK_SEED):
then each hand of every run is dealt from the same deck, and hands differ from each other."""

from games.runtime import play


def test_decks_are_random_by_default(settings):
    settings.GAMES_DECK_SEED = ""
    assert play.deck_seed(1) != play.deck_seed(1)


def test_a_fixed_seed_deals_the_same_hands_each_run(settings):
    settings.GAMES_DECK_SEED = "layout272"
    assert play.deck_seed(1) == play.deck_seed(1) == "layout272:1"
    assert play.deck_seed(2) != play.deck_seed(1)
