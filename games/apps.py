from importlib import import_module

from django.apps import AppConfig

# Packages whose models.py belongs to this app (their tables keep the app's names). Django
# imports an app's own models.py only; these it imports with it, so that nothing needs
# games.models to gather them.
MODEL_PACKAGES = ("analysis", "duplicate", "friends", "history", "lessons", "moderation", "ratings")


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def import_models(self) -> None:
        super().import_models()
        for package in MODEL_PACKAGES:
            import_module(f"games.{package}.models")

    def ready(self) -> None:
        # The write path's commands register themselves (games/runtime/commands.py), and so
        # do the subscribers of the tables' domain events (games/runtime/outbox.py: the hand
        # records, the analysis job, an event's board result, the ratings): importing their
        # modules once, here, lets the runtime import none of its handlers or callers.
        from games import checks  # noqa: F401  (registers the deploy check of GAMES_DECK_SEED)
        from games.analysis import tasks  # noqa: F401
        from games.duplicate import table_boards  # noqa: F401
        from games.friends import commands  # noqa: F401
        from games.history import hand_records  # noqa: F401
        from games.lessons import progress  # noqa: F401  (merges a visitor's lesson progress at login)
        from games.moderation import tables  # noqa: F401
        from games.ratings import service  # noqa: F401
        from games.runtime import lifecycle, play, readiness, seating  # noqa: F401
