"""Duplicate events (复式赛): every table plays the same boards, and each result is scored
against the others that held the same cards in the same direction (docs/events.md).

`boards`, `movement` and `scoring` are pure (the rules engine and nothing else of the
site); `models` stores events, `service` is their one write path.
"""
