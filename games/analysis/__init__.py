"""Every finished hand analysed in the background, and the coach at casual tables (docs/analysis.md).

- `models.py`    HandAnalysis (one per hand: status, level, seats' accuracy), Decision rows;
- `coach.py`     pure: the evaluator's choice for a seat in a position and its seed rule,
                 asked by the analysis and by the Hint button alike;
- `play_facts.py`, `why.py`  what a suggested play does (pure), and the Hint's "Why?" in words;
- `decisions.py` pure: the human seats' decisions of a hand's log, each evaluated from the
                 seat's own Observation at that moment (coach.options);
- `service.py`   reads the log, runs `decisions`, stores the rows; the enqueue on commit;
- `tasks.py`     the background task (Django's tasks framework, django-tasks-db's queue);
- `selectors.py` what the replay and match pages show, and to whom; the Hint's hand seed.
"""
