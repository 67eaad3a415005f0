"""The admin's moderation: users (ban, mute), sanctions, the audit log and reports.

Registered from the games app (`games/admin.py`) because its actions call the
moderation services, which act on tables too; `accounts` imports nothing from games.
"""

from typing import ClassVar

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import Case, Exists, OuterRef, When
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from accounts.models import Profile
from games.moderation import users as moderation
from games.moderation.admin_tools import (
    ModeratorAccessMixin,
    ReadOnlyAdmin,
    change_link,
    reason_action,
)
from games.moderation.forms import SanctionForm
from games.moderation.models import Ban, Kick, ModerationLog, Mute, Report

User = get_user_model()


class ActiveSanctionFilter(admin.SimpleListFilter):
    """Yes / no on an annotation made in get_queryset (`parameter_name` names it)."""

    def lookups(self, request, model_admin):
        return [("yes", _("Yes")), ("no", _("No"))]

    def queryset(self, request, queryset):
        if self.value() in ("yes", "no"):
            return queryset.filter(**{self.parameter_name: self.value() == "yes"})
        return queryset


class BannedFilter(ActiveSanctionFilter):
    title = _("banned now")
    parameter_name = "banned_now"


class MutedFilter(ActiveSanctionFilter):
    title = _("muted now")
    parameter_name = "muted_now"


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False
    extra = 0


admin.site.unregister(User)


@admin.register(User)
class ModeratedUserAdmin(ModeratorAccessMixin, UserAdmin):
    list_display = (
        "username",
        "email",
        "date_joined",
        "last_login",
        "is_active",
        "is_staff",
        "banned_now",
        "muted_now",
        "moderate",
    )
    list_filter = (BannedFilter, MutedFilter, *UserAdmin.list_filter, "date_joined")
    inlines = (ProfileInline,)
    actions = ("ban_users", "mute_users", "unban_users", "unmute_users")

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(
                banned_now=Exists(Ban.objects.active().filter(user=OuterRef("pk"))),
                muted_now=Exists(Mute.objects.active().filter(user=OuterRef("pk"))),
            )
        )

    @admin.display(boolean=True, description=_("banned"), ordering="banned_now")
    def banned_now(self, user):
        return user.banned_now

    @admin.display(boolean=True, description=_("muted"), ordering="muted_now")
    def muted_now(self, user):
        return user.muted_now

    @admin.display(description=_("moderation"))
    def moderate(self, user):
        return format_html('<a href="{}">{}</a>', reverse("moderation_user", args=[user.username]), _("moderate"))

    @admin.action(description=_("Ban selected users"), permissions=["moderate"])
    def ban_users(self, request, queryset):
        return reason_action(
            self,
            request,
            queryset,
            action="ban_users",
            title=_("Ban selected users"),
            form_class=SanctionForm,
            perform=lambda user, form: moderation.user_ban(
                moderator=request.user, user=user, reason=form.cleaned_data["reason"], expires_at=form.expires_at()
            ),
        )

    @admin.action(description=_("Mute selected users"), permissions=["moderate"])
    def mute_users(self, request, queryset):
        return reason_action(
            self,
            request,
            queryset,
            action="mute_users",
            title=_("Mute selected users"),
            form_class=SanctionForm,
            perform=lambda user, form: moderation.user_mute(
                moderator=request.user, user=user, reason=form.cleaned_data["reason"], expires_at=form.expires_at()
            ),
        )

    @admin.action(description=_("Lift the bans of selected users"), permissions=["moderate"])
    def unban_users(self, request, queryset):
        return reason_action(
            self,
            request,
            queryset,
            action="unban_users",
            title=_("Lift the bans of selected users"),
            perform=lambda user, form: moderation.user_unban(
                moderator=request.user, user=user, reason=form.cleaned_data["reason"]
            ),
        )

    @admin.action(description=_("Lift the mutes of selected users"), permissions=["moderate"])
    def unmute_users(self, request, queryset):
        return reason_action(
            self,
            request,
            queryset,
            action="unmute_users",
            title=_("Lift the mutes of selected users"),
            perform=lambda user, form: moderation.user_unmute(
                moderator=request.user, user=user, reason=form.cleaned_data["reason"]
            ),
        )


class SanctionAdmin(ReadOnlyAdmin):
    """Bans, mutes and kicks are made by the moderation services; here they are listed and lifted."""

    list_display: tuple[str, ...] = (
        "user_link",
        "moderator",
        "reason",
        "created_at",
        "expires_at",
        "lifted_at",
        "active",
    )
    list_filter = ("created_at", "expires_at", "lifted_at")
    search_fields = ("user__username", "moderator__username", "reason")
    list_select_related: ClassVar[tuple[str, ...]] = ("user", "moderator")  # KickAdmin's lists more
    actions = ("lift",)

    @admin.display(description=_("user"), ordering="user__username")
    def user_link(self, sanction):
        return format_html(
            '<a href="{}">{}</a>', reverse("moderation_user", args=[sanction.user.username]), sanction.user.username
        )

    def get_queryset(self, request):
        return super().get_queryset(request).with_active()

    @admin.display(boolean=True, description=_("active"), ordering="active_now")
    def active(self, sanction):
        return sanction.active_now

    @admin.action(description=_("Lift selected"), permissions=["moderate"])
    def lift(self, request, queryset):
        return reason_action(
            self,
            request,
            queryset,
            action="lift",
            title=_("Lift selected"),
            perform=lambda sanction, form: self.lift_one(request, sanction, form.cleaned_data["reason"]),
        )


@admin.register(Ban)
class BanAdmin(SanctionAdmin):
    def lift_one(self, request, ban, reason):
        moderation.user_unban(moderator=request.user, user=ban.user, reason=reason)


@admin.register(Mute)
class MuteAdmin(SanctionAdmin):
    def lift_one(self, request, mute, reason):
        moderation.user_unmute(moderator=request.user, user=mute.user, reason=reason)


@admin.register(Kick)
class KickAdmin(SanctionAdmin):
    list_display = ("user_link", "table_link", *SanctionAdmin.list_display[1:])
    list_select_related = ("user", "moderator", "table")

    @admin.display(description=_("table"))
    def table_link(self, kick):
        return change_link(kick.table)

    def lift_one(self, request, kick, reason):
        moderation.kick_lift(moderator=request.user, user=kick.user, table=kick.table, reason=reason)


@admin.register(ModerationLog)
class ModerationLogAdmin(ReadOnlyAdmin):
    """The audit log: readable by moderators, changed by nobody (no add, change or delete)."""

    list_display = ("created_at", "moderator", "action", "target_link", "reason")
    list_filter = ("action", "created_at")
    search_fields = ("moderator__username", "target", "reason")
    list_select_related = ("moderator", "target_user", "table")
    date_hierarchy = "created_at"

    @admin.display(description=_("target"), ordering="target")
    def target_link(self, entry):
        if entry.target_user_id:
            return format_html(
                '<a href="{}">{}</a>', reverse("moderation_user", args=[entry.target_user.username]), entry.target
            )
        if entry.table_id:
            return change_link(entry.table, entry.target)
        return entry.target


@admin.register(Report)
class ReportAdmin(ReadOnlyAdmin):
    """The report queue: open reports first; resolve or dismiss them with a note."""

    list_display = ("created_at", "status", "reporter", "subject", "reason", "handled_by", "note")
    list_filter = ("status", "created_at")
    search_fields = ("reporter__username", "user__username", "table__name", "reason")
    list_select_related = ("reporter", "user", "table", "handled_by")
    actions = ("resolve", "dismiss")

    def get_ordering(self, request):
        return [Case(When(status=Report.Status.OPEN, then=0), default=1), "-created_at"]

    @admin.display(description=_("about"))
    def subject(self, report):
        if report.user_id:
            return format_html(
                '<a href="{}">{}</a>', reverse("moderation_user", args=[report.user.username]), report.user.username
            )
        if report.table_id:
            return format_html('<a href="{}">{}</a>', reverse("moderation_table", args=[report.table_id]), report.table)
        return "-"

    def _close(self, request, queryset, status, action, title):
        return reason_action(
            self,
            request,
            queryset,
            action=action,
            title=title,
            perform=lambda report, form: moderation.report_close(
                moderator=request.user, report=report, status=status, note=form.cleaned_data["reason"]
            ),
        )

    @admin.action(description=_("Resolve selected reports"), permissions=["moderate"])
    def resolve(self, request, queryset):
        return self._close(request, queryset, Report.Status.RESOLVED, "resolve", _("Resolve selected reports"))

    @admin.action(description=_("Dismiss selected reports"), permissions=["moderate"])
    def dismiss(self, request, queryset):
        return self._close(request, queryset, Report.Status.DISMISSED, "dismiss", _("Dismiss selected reports"))
