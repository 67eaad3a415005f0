"""The strong bot (placeholder: plays like basic until the Monte-Carlo search lands)."""
from . import basic


def decide(obs, rng, **options):
    return basic.decide(obs)
