"""The admin for tables and their record: read-only (tables change only through the
write path, games/runtime/writer.py), linked table → matches → hands → events, with the
moderators' "close" and "delete message" actions (docs/moderation.md).

The record holds private game data (decks, buried cards, seat-private events). While a
hand runs it stays hidden here too — moderators may also be players (RULES §9) — and
shows once the hand is over.
"""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from games.models import Bury, ChatMessage, Hand, Match, MatchPlayer, Seat, Table, TableEvent
from games.moderation import admin as moderation_admin  # noqa: F401  (registers users, sanctions, log, reports)
from games.moderation import tables as moderation
from games.moderation import users as user_moderation
from games.moderation.admin_tools import ReadOnlyAdmin, ReadOnlyInline, change_link, changelist_link, reason_action


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("position", "user", "bot", "autoplay")
    show_change_link = False


class MatchPlayerInline(ReadOnlyInline):
    model = MatchPlayer
    fields = ("position", "user", "bot")
    show_change_link = False


class HandInline(ReadOnlyInline):
    model = Hand
    fields = ("number", "level", "dealer", "trump", "defenders_score", "level_change", "finished_at")


def hand_is_over(hand) -> bool:
    return hand is None or hand.finished_at is not None


class BuryInline(ReadOnlyInline):
    model = Bury
    fields = ("seat", "kitty", "cards")

    def has_view_permission(self, request, obj=None) -> bool:
        return hand_is_over(obj) and super().has_view_permission(request, obj)

    show_change_link = False


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = (
        "name",
        "id",
        "owner",
        "status",
        "is_private",
        "allow_bots",
        "version",
        "created_at",
        "matches_link",
        "events_link",
        "moderate",
    )
    list_filter = ("status", "is_private", "allow_bots", "turn_limit_s", "created_at")
    search_fields = ("name", "owner__username", "seats__user__username", "=id")
    list_select_related = ("owner",)
    date_hierarchy = "created_at"
    exclude = ("state",)  # the engine snapshot: read it through hands and events
    readonly_fields = ("matches_link", "events_link", "chat_link", "moderate")
    inlines = (SeatInline,)
    actions = ("close_tables",)

    @admin.display(description=_("matches"))
    def matches_link(self, table):
        return changelist_link(Match, _("matches"), table__id__exact=table.pk)

    @admin.display(description=_("events"))
    def events_link(self, table):
        return changelist_link(TableEvent, _("event log"), table__id__exact=table.pk)

    @admin.display(description=_("chat"))
    def chat_link(self, table):
        return changelist_link(ChatMessage, _("chat"), table__id__exact=table.pk)

    @admin.display(description=_("moderation"))
    def moderate(self, table):
        return format_html('<a href="{}">{}</a>', reverse("moderation_table", args=[table.pk]), _("moderate"))

    @admin.action(description=_("Close selected tables"), permissions=["moderate"])
    def close_tables(self, request, queryset):
        return reason_action(
            self,
            request,
            queryset,
            action="close_tables",
            title=_("Close selected tables"),
            perform=lambda table, form: moderation.table_close(
                moderator=request.user, table_id=table.pk, reason=form.cleaned_data["reason"]
            ),
        )


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("table_link", "position", "user", "bot", "autoplay")
    list_filter = ("bot", "autoplay")
    search_fields = ("table__name", "user__username")
    list_select_related = ("table", "user")

    @admin.display(description=_("table"), ordering="table")
    def table_link(self, seat):
        return change_link(seat.table)


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = (
        "__str__",
        "table_link",
        "number",
        "started_at",
        "finished_at",
        "winner_team",
        "aborted",
        "abort_reason",
        "hands_link",
    )
    list_filter = ("aborted", "winner_team", "started_at")
    search_fields = ("table__name", "players__username", "abort_reason")
    list_select_related = ("table",)
    readonly_fields = ("table_link", "hands_link", "events_link")
    inlines = (MatchPlayerInline, HandInline)

    @admin.display(description=_("table"), ordering="table")
    def table_link(self, match):
        return change_link(match.table)

    @admin.display(description=_("hands"))
    def hands_link(self, match):
        return changelist_link(Hand, _("hands"), match__id__exact=match.pk)

    @admin.display(description=_("events"))
    def events_link(self, match):
        return changelist_link(TableEvent, _("event log"), hand__match__id__exact=match.pk)


@admin.register(MatchPlayer)
class MatchPlayerAdmin(ReadOnlyAdmin):
    list_display = ("match_link", "position", "user", "bot")
    search_fields = ("user__username", "match__table__name")
    list_select_related = ("match__table", "user")

    @admin.display(description=_("match"), ordering="match")
    def match_link(self, player):
        return change_link(player.match)


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = (
        "__str__",
        "match_link",
        "number",
        "level",
        "dealer",
        "trump",
        "defenders_score",
        "finished_at",
        "events_link",
    )
    list_filter = ("level", "trump", "started_at")
    search_fields = ("match__table__name", "seed")
    list_select_related = ("match__table",)
    readonly_fields = ("match_link", "events_link")
    inlines = (BuryInline,)

    def get_exclude(self, request, obj=None):
        return None if obj is None or hand_is_over(obj) else ("deck", "seed")

    @admin.display(description=_("match"), ordering="match")
    def match_link(self, hand):
        return change_link(hand.match)

    @admin.display(description=_("events"))
    def events_link(self, hand):
        return changelist_link(TableEvent, _("event log"), hand__id__exact=hand.pk)


@admin.register(Bury)
class BuryAdmin(ReadOnlyAdmin):
    list_display = ("hand_link", "seat", "created_at")
    list_select_related = ("hand__match__table",)

    def get_queryset(self, request):
        return super().get_queryset(request).filter(hand__finished_at__isnull=False)

    @admin.display(description=_("hand"), ordering="hand")
    def hand_link(self, bury):
        return change_link(bury.hand)


@admin.register(TableEvent)
class TableEventAdmin(ReadOnlyAdmin):
    """The append-only log: nobody adds, changes or deletes events."""

    list_display = ("table_link", "seq", "kind", "source", "actor", "hand_link", "created_at")
    list_filter = ("source", "created_at")
    search_fields = ("table__name", "actor__username", "=table__id")
    list_select_related = ("table", "actor", "hand__match__table")
    readonly_fields = ("table_link", "hand_link")

    def get_exclude(self, request, obj=None):
        # A running hand's actions and events name cards (dealt, buried, in hand).
        return None if obj is None or hand_is_over(obj.hand) else ("action", "events")

    def lookup_allowed(self, lookup, value, request=None):
        # Match → its events (MatchAdmin.events_link).
        return lookup == "hand__match__id__exact" or super().lookup_allowed(lookup, value, request)

    @admin.display(description=_("action"))
    def kind(self, event):
        return event.action.get("type")

    @admin.display(description=_("table"), ordering="table")
    def table_link(self, event):
        return change_link(event.table)

    @admin.display(description=_("hand"), ordering="hand")
    def hand_link(self, event):
        return change_link(event.hand)


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "table_link", "user", "text", "deleted", "deleted_by")
    list_filter = ("deleted", "created_at")
    search_fields = ("text", "user__username", "table__name")
    list_select_related = ("table", "user", "deleted_by")
    actions = ("delete_messages",)

    @admin.display(description=_("table"), ordering="table")
    def table_link(self, message):
        return change_link(message.table)

    @admin.action(description=_("Delete selected messages (hide them)"), permissions=["moderate"])
    def delete_messages(self, request, queryset):
        return reason_action(
            self,
            request,
            queryset,
            action="delete_messages",
            title=_("Delete selected messages"),
            perform=lambda message, form: user_moderation.chat_message_delete(
                moderator=request.user, message=message, reason=form.cleaned_data["reason"]
            ),
        )
