"""How the game reads to people, in their language: cards as faces and spoken names, seats
and bots by name, refusals as sentences.

Every page and socket shows these (the table, replays, analysis, lessons, moderation), so
they live below all of them: this package imports the engine, the bot levels and Django's
translation, and nothing that renders a page (pyproject.toml's import-linter contracts).
"""
