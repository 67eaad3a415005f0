from django.contrib import admin
from django.urls import include, path

from games.history.views import profile

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    # A player's page is their record, so history serves it under the accounts prefix.
    path("accounts/u/<str:username>/", profile, name="profile"),
    path("accounts/", include("accounts.urls")),
    path("", include("games.moderation.urls")),  # /moderation/…, /report/…
    path("", include("games.urls")),
]
