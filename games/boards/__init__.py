"""Duplicate play's boards and their results, below the features (docs/events.md):

- `board.py`    a board: a hand fixed in advance (pure: the rules engine only);
- `scoring.py`  matchpoints and standings of boards' results (pure);
- `results.py`  the stored results, as scoring compares them;
- `ranking.py`  what a rated event's board ranks, for the ratings (docs/ratings.md).

Events (games/duplicate/) deal, score and rank with them; the ratings rate an event's
boards from `ranking`, without importing the events.
"""
