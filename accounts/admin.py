from django.contrib import admin

from accounts.models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "language", "created_at")
    list_filter = ("language",)
    search_fields = ("user__username", "user__email")
    raw_id_fields = ("user",)
