"""Bots that fill seats (placeholder until the bot issue lands)."""
import random

from games import engine


def choose(*, table, game, seat: int, level: str) -> dict:
    rng = random.Random(f"{table.pk}:{table.version}:{seat}")
    if game.phase == "bury":
        hand = engine.view(game, seat)["hand"]
        return {"type": "bury", "seat": seat, "cards": hand[-8:]}
    return {"type": "play", "seat": seat, "cards": engine.sample_play(game, seat, rng)}
