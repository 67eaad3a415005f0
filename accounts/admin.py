from django.contrib import admin

from accounts.forms import ThrottledAdminAuthenticationForm
from accounts.models import Profile

# The admin's login obeys the same throttle as the site's (docs/accounts.md).
admin.site.login_form = ThrottledAdminAuthenticationForm


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "language", "created_at")
    list_filter = ("language",)
    search_fields = ("user__username", "user__email")
    raw_id_fields = ("user",)
