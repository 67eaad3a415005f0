"""Persistence of tables, matches, hands, bury choices, scores and the event log.

The engine state of a running table lives in `Table.state` (a JSON snapshot) with
`Table.version`; every accepted action is appended to `TableEvent` with
`seq == version` after it. Hands and matches are the durable, queryable record
for history pages; replays fold `TableEvent.action`s through the engine.
"""

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games import engine


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


class Table(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")
        CLOSED = "closed", _("closed")

    TURN_LIMITS = [(0, _("off")), (15, "15 s"), (30, "30 s"), (60, "60 s")]

    name = models.CharField(_("name"), max_length=60)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_tables")
    is_private = models.BooleanField(_("private"), default=False)
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code, editable=False)
    deal_pace_ms = models.PositiveIntegerField(_("deal pace (ms per card)"), default=150)
    last_chance_ms = models.PositiveIntegerField(_("last-chance window (ms)"), default=2000)
    turn_limit_s = models.PositiveSmallIntegerField(_("turn time limit"), choices=TURN_LIMITS, default=0)
    allow_bots = models.BooleanField(_("bots may fill seats"), default=True)
    # House rules (docs/house-rules.md): the options that differ from RULES.md, as
    # {option: value}; the last-chance window is the `last_chance_ms` column above.
    rules = models.JSONField(_("house rules"), default=dict, blank=True)
    # Rated or casual, chosen at creation (docs/ratings.md); a match with a bot is casual anyway.
    rated = models.BooleanField(_("rated"), default=False)
    # Guests (accounts without a password, accounts/guests.py) chat only where the owner allows it.
    guests_may_chat = models.BooleanField(_("guests may chat"), default=False)

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING, db_index=True)
    closed_reason = models.CharField(max_length=300, blank=True)
    # The single source of truth for a running match: engine snapshot + version.
    version = models.PositiveIntegerField(default=0)
    state = models.JSONField(null=True, blank=True)
    # Time-derived deal (docs/table-runtime.md): cards dealt = f(now - deal_started_at).
    deal_started_at = models.DateTimeField(null=True, blank=True)
    # When the current timed step (last chance, turn time-out, next hand) falls due.
    deadline = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # When a signed-in person was last connected to the table (games/runtime/lifecycle.py).
    people_seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.name} (#{self.pk})"

    def game_rules(self) -> engine.Rules:
        """The engine Rules a match at this table starts with."""
        return engine.check_rules({**(self.rules or {}), "last_chance_ms": self.last_chance_ms})


class Seat(models.Model):
    class Bot(models.TextChoices):
        NONE = "", _("human")
        NOVICE = "novice", _("novice bot")
        BASIC = "basic", _("basic bot")
        STRONG = "strong", _("strong bot")
        EXPERT = "expert", _("expert bot")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    bot = models.CharField(max_length=10, choices=Bot.choices, blank=True, default="")
    # A human seat whose player timed out is played by a bot until they act again.
    autoplay = models.BooleanField(default=False)
    # The person said "ready" to the result of this hand (games/runtime/readiness.py): once
    # every person at the table has, the next hand starts without waiting for the clock.
    ready_after_hand = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="unique_seat_position"),
            models.CheckConstraint(condition=models.Q(position__gte=0, position__lte=3), name="seat_position_0_3"),
        ]

    def __str__(self):
        return f"{self.table_id}:{self.position}"

    @property
    def is_free(self) -> bool:
        return self.user_id is None and not self.bot


class Match(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveIntegerField()
    # Who sat where when the match started: the history record, whatever happens to seats later.
    players = models.ManyToManyField(settings.AUTH_USER_MODEL, through="MatchPlayer", related_name="matches")
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    winner_team = models.PositiveSmallIntegerField(null=True, blank=True)
    aborted = models.BooleanField(default=False)
    abort_reason = models.CharField(max_length=300, blank=True)
    final_levels = models.JSONField(null=True, blank=True)
    # The engine Rules the match was played under (Rules.to_json(); null: older, RULES.md).
    rules = models.JSONField(null=True, blank=True)
    # Fixed when the match starts (games/runtime/records.py): it changes ratings when it ends.
    rated = models.BooleanField(default=False)
    # The team of the first player removed during the match: it loses for the ratings.
    left_team = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="unique_match_number")]

    def __str__(self):
        return f"{self.table.name} match {self.number}"

    def game_rules(self) -> engine.Rules:
        return engine.Rules.from_json(self.rules)


class MatchPlayer(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seating")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    position = models.PositiveSmallIntegerField()
    bot = models.CharField(max_length=10, blank=True, default="")
    # Throws from this seat the other hands could beat (RULES §5.3), counted as they happen.
    failed_throws = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["match", "position"]
        constraints = [models.UniqueConstraint(fields=["match", "position"], name="unique_match_position")]

    def __str__(self):
        return f"match {self.match_id} seat {self.position}"

    @property
    def team(self) -> int:
        return engine.team_of(self.position)


class Hand(models.Model):
    """One deal: its deck, trump, declarations, kitty and score (RULES §1–§8)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    seed = models.CharField(max_length=64)
    deck = models.JSONField()  # the shuffled order: kept for audits and replays
    level = models.CharField(max_length=2)
    dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    trump = models.CharField(max_length=2, blank=True)
    flipped = models.CharField(max_length=4, blank=True)
    declarations = models.JSONField(default=list)
    levels_before = models.JSONField()
    rules = models.JSONField(null=True, blank=True)  # the Rules it was played under (as Match.rules)
    # Filled when the hand is scored (RULES §6–§8).
    trick_points = models.IntegerField(null=True, blank=True)
    kitty_points = models.IntegerField(null=True, blank=True)
    kitty_multiplier = models.IntegerField(null=True, blank=True)
    kitty_bonus = models.IntegerField(null=True, blank=True)
    penalties = models.IntegerField(null=True, blank=True)
    defenders_score = models.IntegerField(null=True, blank=True)
    levels_after = models.JSONField(null=True, blank=True)
    level_change = models.JSONField(null=True, blank=True)
    next_dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    first_seq = models.PositiveIntegerField()
    last_seq = models.PositiveIntegerField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="unique_hand_number")]

    def __str__(self):
        return f"{self.match} hand {self.number}"

    @property
    def is_finished(self) -> bool:
        return self.finished_at is not None

    def game_rules(self) -> engine.Rules:
        return engine.Rules.from_json(self.rules)


class Bury(models.Model):
    """The dealer's bury choice (RULES §4.2): secret until the hand is over."""

    hand = models.OneToOneField(Hand, on_delete=models.CASCADE, related_name="bury")
    seat = models.PositiveSmallIntegerField()
    kitty = models.JSONField()  # the 8 cards picked up
    cards = models.JSONField()  # the 8 cards buried
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "buries"

    def __str__(self):  # never the cards: the admin lists buries of running hands too
        return f"bury of hand {self.hand_id}"


class TableEvent(models.Model):
    """Append-only log of every accepted action; `seq` is the table version it produced."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    hand = models.ForeignKey(Hand, null=True, blank=True, on_delete=models.SET_NULL, related_name="events")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    source = models.CharField(
        max_length=10
    )  # who acted: "player", "clock", "bot" or "moderator" (games/runtime/writer.py)
    action = models.JSONField()
    events = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "seq"]
        constraints = [models.UniqueConstraint(fields=["table", "seq"], name="unique_table_seq")]

    def __str__(self):
        return f"{self.table_id}#{self.seq} {self.action.get('type')}"


class DomainEvent(models.Model):
    """Something a table (or an event, games/duplicate/) did that other packages react to (the
    outbox): written in the transaction of what it tells, delivered to each subscriber once
    that has committed (games/runtime/outbox.py)."""

    class Kind(models.TextChoices):
        HAND_SCORED = "hand_scored"
        MATCH_ENDED = "match_ended"
        BOARDS_PLAYED = "boards_played"  # an event's table played its last board
        EVENT_FINISHED = "event_finished"  # facts: {"event": id}
        RESULT_ADJUSTED = "result_adjusted"  # a moderator rescored a board; facts: {"event": id}

    kind = models.CharField(max_length=20, choices=Kind.choices)
    # None for an event's own (finished, a result adjusted): no one table did it.
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.CASCADE, related_name="domain_events")
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.CASCADE, related_name="domain_events")
    hand = models.ForeignKey(Hand, null=True, blank=True, on_delete=models.CASCADE, related_name="domain_events")
    facts = models.JSONField(default=dict)  # what only the moment of writing knows
    created_at = models.DateTimeField()
    delivered_at = models.DateTimeField(null=True, blank=True)  # every subscriber has had it

    class Meta:
        indexes = [
            models.Index(fields=["created_at"], condition=models.Q(delivered_at__isnull=True), name="undelivered")
        ]

    def __str__(self):
        return f"{self.kind} of table {self.table_id}" if self.table_id else f"{self.kind} {self.facts}"

    def scored_hand(self) -> Hand:
        """The hand of a "hand scored" event (each has one)."""
        if self.hand is None:
            raise ValueError(f"domain event {self.pk} ({self.kind}) has no hand")
        return self.hand


class Delivery(models.Model):
    """One subscriber had one domain event: written in the subscriber's own transaction, so
    what it did and this row commit together, once (the unique pair)."""

    event = models.ForeignKey(DomainEvent, on_delete=models.CASCADE, related_name="deliveries")
    subscriber = models.CharField(max_length=60)
    delivered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "deliveries"
        constraints = [models.UniqueConstraint(fields=["event", "subscriber"], name="unique_delivery")]

    def __str__(self):
        return f"{self.subscriber} had {self.event_id}"


class ChatMessage(models.Model):
    """One line of a table's chat (games/chat.py). Never rendered as HTML: always escaped.

    Moderators hide a message by setting `deleted` (and `deleted_by`); it stays stored.
    """

    MAX_LENGTH = 300

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages")
    text = models.CharField(max_length=MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)
    deleted = models.BooleanField(default=False)
    deleted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["table", "created_at", "pk"]
        indexes = [models.Index(fields=["table", "-created_at"], name="chat_table_recent")]

    def __str__(self):
        return f"{self.table_id} {self.user_id}: {self.text[:40]}"


class Spectator(models.Model):
    """A socket watching a table without a seat (for the lobby's spectator count).

    One row per socket, removed on disconnect; `seen_at` is refreshed while it lives, so
    rows left by a crashed server stop counting on their own.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="spectators")
    channel_name = models.CharField(max_length=200, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    seen_at = models.DateTimeField(auto_now=True, db_index=True)

    def __str__(self):
        return f"user {self.user_id} watching table {self.table_id}"
