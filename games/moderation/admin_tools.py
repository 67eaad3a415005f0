"""Admin helpers shared by accounts/admin.py and games/admin.py: moderator access,
read-only model admins, links between change pages, and admin actions that ask for a
reason on an intermediate page before calling a moderation service."""

from typing import TYPE_CHECKING
from urllib.parse import urlencode

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import ngettext

from accounts.selectors import user_can_moderate
from games.engine import Refusal
from games.moderation.forms import ReasonForm
from games.words.refusals import refusal_text

if TYPE_CHECKING:  # the mixin's super() is the ModelAdmin it is mixed into
    _AdminBase = admin.ModelAdmin
else:
    _AdminBase = object


class ModeratorAccessMixin(_AdminBase):
    """Moderators (`accounts.moderate`) may view this model and run its moderation actions."""

    def has_moderate_permission(self, request) -> bool:
        return user_can_moderate(request.user)

    def has_view_permission(self, request, obj=None) -> bool:
        return super().has_view_permission(request, obj) or user_can_moderate(request.user)

    def has_module_permission(self, request) -> bool:
        return super().has_module_permission(request) or user_can_moderate(request.user)


class NoEditing:
    """Records that change only through services (the table's write path, moderation):
    nobody adds, edits or deletes them in the admin."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ReadOnlyAdmin(NoEditing, ModeratorAccessMixin, admin.ModelAdmin):
    pass


class ReadOnlyInline(NoEditing, admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True

    def has_view_permission(self, request, obj=None) -> bool:
        return super().has_view_permission(request, obj) or user_can_moderate(request.user)


def change_link(obj, text=None):
    """A link to this object's admin change page ("-" for None)."""
    if obj is None:
        return "-"
    meta = obj._meta
    url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
    return format_html('<a href="{}">{}</a>', url, text if text is not None else str(obj))


def changelist_link(model, text, **filters):
    """A link to a model's admin list, filtered (e.g. `table__id__exact=3`)."""
    meta = model._meta
    url = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
    return format_html('<a href="{}?{}">{}</a>', url, urlencode(filters), text)


def reason_action(modeladmin, request, queryset, *, action: str, title: str, perform, form_class=ReasonForm):
    """An admin action that first asks for a reason (and whatever else `form_class` asks).

    `perform(obj, form)` runs the service for one selected object; refusals are reported
    per object and do not stop the others. Returns None (back to the list) when done.
    """
    form = form_class(request.POST if "apply" in request.POST else None)
    if "apply" in request.POST and form.is_valid():
        done = 0
        for obj in queryset:
            try:
                perform(obj, form)
            except Refusal as refused:
                text = refusal_text(refused)
                modeladmin.message_user(request, f"{obj}: {text}", messages.WARNING)
            except PermissionDenied:
                raise
            else:
                done += 1
        modeladmin.message_user(
            request,
            ngettext("%(count)d done: %(title)s", "%(count)d done: %(title)s", done) % {"count": done, "title": title},
            messages.SUCCESS,
        )
        return None
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "queryset": queryset,
        "form": form,
        "action": action,
        "opts": modeladmin.model._meta,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
    }
    return TemplateResponse(request, "admin/moderation_action.html", context)
