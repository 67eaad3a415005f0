from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("accounts.urls")),
    path("", include("accounts.moderation_urls")),  # /moderation/users/…, /report/user/…
    path("", include("games.moderation_urls")),  # /moderation/tables/…, /report/table/…
    path("", include("games.urls")),
]
