"""Interactive lessons at /learn/ (docs/learning.md): hand-made positions played through the
rules engine. No rule lives here: every move goes through `games.engine`, which accepts it
or refuses it with its own reason, and a lesson's goal is judged from what the engine made
of the move (who won the trick, the points, the score).
"""
