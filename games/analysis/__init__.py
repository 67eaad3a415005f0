"""Every finished hand analysed in the background (docs/analysis.md).

- `models.py`    HandAnalysis (one per hand: status, level, seats' accuracy), Decision rows;
- `decisions.py` pure: the human seats' decisions of a hand's log, each evaluated from the
                 seat's own Observation at that moment (games.bots.evaluate_options);
- `service.py`   reads the log, runs `decisions`, stores the rows; the enqueue on commit;
- `tasks.py`     the background task (Django's tasks framework, django-tasks-db's queue);
- `selectors.py` what the replay and match pages show, and to whom.
"""
