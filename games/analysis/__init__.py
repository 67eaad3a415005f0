"""Every finished hand analysed in the background, and the coach at casual tables (docs/analysis.md).

- `models.py`    HandAnalysis (one per hand: status, level, seats' accuracy), Decision rows;
- `why.py`       the Hint's "Why?" in words, from the facts of the coach's suggested play
                 (games/bots/coach.py and play_facts.py: pure, asked by the analysis and the Hint alike);
- `decisions.py` pure: the human seats' decisions of a hand's log, each evaluated from the
                 seat's own Observation at that moment (games/bots/coach.py `options`);
- `service.py`   reads the log, runs `decisions`, stores the rows; the enqueue on commit;
- `tasks.py`     the background task (Django's tasks framework, django-tasks-db's queue);
- `selectors.py` what the replay and match pages show, and to whom; the Hint's hand seed.
"""
