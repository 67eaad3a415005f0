"""The records of duplicate events (docs/events.md). Imported by games/models.py, so they
belong to the games app.

An event's boards are stored from its creation (`EventBoard`: seed, dealer, levels); their
decks are the engine's shuffle of the seed, secret until every table of the round has
played them. Each round's tables are real tables (`Table`) that play the round's boards
through the one write path; what each table made of each board is a `BoardResult`,
written by the write path when the hand is scored, which a moderator may adjust.
"""

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games import engine
from games.boards.board import Board

NAME_LENGTH = 60


def new_event_seed() -> str:
    return secrets.token_hex(16)


class Event(models.Model):
    class Kind(models.TextChoices):
        PAIRS = "pairs", _("pairs")
        INDIVIDUAL = "individual", _("individual")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("registration")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    name = models.CharField(_("name"), max_length=NAME_LENGTH)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    is_private = models.BooleanField(_("private"), default=False)
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    boards_per_round = models.PositiveSmallIntegerField(_("boards per round"))
    round_minutes = models.PositiveSmallIntegerField(_("minutes per round"))
    starts_at = models.DateTimeField(_("start"))
    rated = models.BooleanField(_("rated"), default=False)
    # House rules as Table.rules ({option: value}, docs/house-rules.md): every table plays them.
    rules = models.JSONField(_("house rules"), default=dict, blank=True)
    # The tables' pace (as Table's own columns).
    deal_pace_ms = models.PositiveIntegerField(_("deal pace (ms per card)"), default=150)
    last_chance_ms = models.PositiveIntegerField(_("last-chance window (ms)"), default=2000)
    bot_level = models.CharField(_("bots"), max_length=10, default="basic")
    # The boards' seeds derive from it: never shown before the event is over.
    seed = models.CharField(max_length=64, default=new_event_seed, editable=False)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTRATION, db_index=True)
    current_round = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at"]
        verbose_name = _("event")
        constraints = [
            models.CheckConstraint(condition=models.Q(rounds__gte=1), name="event_rounds_1"),
            models.CheckConstraint(condition=models.Q(boards_per_round__gte=1), name="event_boards_1"),
        ]

    def __str__(self):
        return f"{self.name} (event #{self.pk})"

    def game_rules(self) -> engine.Rules:
        return engine.check_rules(dict(self.rules or {}))


class Entry(models.Model):
    """A pair (the player who registered it, and the partner they named) or an individual
    (no partner). A pair plays once the partner has confirmed it (`partner_confirmed_at`):
    until then the partner is only invited."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    partner_confirmed_at = models.DateTimeField(null=True, blank=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "pk"]
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="unique_event_player"),
            models.UniqueConstraint(fields=["event", "partner"], name="unique_event_partner"),
        ]

    def __str__(self):
        return f"entry {self.pk} of event {self.event_id}"

    @property
    def confirmed(self) -> bool:
        """An individual, or a pair whose partner confirmed it: it may check in and play."""
        return self.partner_id is None or self.partner_confirmed_at is not None

    def person_at(self, seat: int) -> int | None:
        """The user this entry seats at `seat` of a table: a pair's player at its first seat
        (0 or 1), its partner at the second (2 or 3); an individual wherever it sits."""
        return self.partner_id if self.partner_id is not None and seat >= 2 else self.player_id


class EventBoard(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=100)
    dealer = models.PositiveSmallIntegerField()
    levels = models.JSONField()  # team ("0"/"1") -> level rank

    class Meta:
        ordering = ["event", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="unique_event_board")]

    def __str__(self):  # never the seed: it is the deck
        return f"board {self.number} of event {self.event_id}"

    def board(self, rules: engine.Rules) -> Board:
        return Board(self.number, self.seed, self.dealer, dict(self.levels), rules)


class EventRound(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="event_rounds")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    ends_at = models.DateTimeField()  # when its unfinished tables are to be finished by bots
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="unique_event_round")]

    def __str__(self):
        return f"round {self.number} of event {self.event_id}"


class EventTable(models.Model):
    """One table of a round: the movement's sitting (`seats`: the entry at each seat, None a
    bot) and the boards it plays, in order, as the hands of its one match."""

    round = models.ForeignKey(EventRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    table = models.OneToOneField("games.Table", on_delete=models.PROTECT, related_name="event_table")
    seats = models.JSONField()  # [entry id | None] x 4
    boards = models.JSONField()  # [board number, ...]

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="unique_round_table")]

    def __str__(self):
        return f"table {self.number} of {self.round}"


class BoardResult(models.Model):
    """What one table made of one board (the scored hand's result), as the write path stored
    it; a moderator's adjustment replaces the defenders' score it is scored with."""

    event_table = models.ForeignKey(EventTable, on_delete=models.CASCADE, related_name="results")
    board = models.ForeignKey(EventBoard, on_delete=models.CASCADE, related_name="results")
    hand = models.OneToOneField("games.Hand", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    defenders_score = models.IntegerField()
    level_change = models.JSONField()  # {"team", "levels"}
    # Seats a bot played for an absent player (autoplay) when the hand was scored.
    stand_ins = models.JSONField(default=list, blank=True)
    adjusted_score = models.IntegerField(null=True, blank=True)
    adjusted_level_change = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["board", "event_table"]
        constraints = [models.UniqueConstraint(fields=["event_table", "board"], name="unique_table_board_result")]

    def __str__(self):
        return f"{self.event_table}, board {self.board.number}"

    @property
    def scored_score(self) -> int:
        return self.defenders_score if self.adjusted_score is None else self.adjusted_score

    @property
    def scored_level_change(self) -> dict:
        return self.level_change if self.adjusted_level_change is None else self.adjusted_level_change
