"""Moderation of users (staff with accounts.moderate) and reporting a user (players)."""
from django.urls import path

from accounts import moderation_views as views

urlpatterns = [
    path("moderation/users/<str:username>/", views.user_page, name="moderation_user"),
    path("moderation/users/<str:username>/ban/", views.user_ban, name="moderation_user_ban"),
    path("moderation/users/<str:username>/unban/", views.user_unban, name="moderation_user_unban"),
    path("moderation/users/<str:username>/mute/", views.user_mute, name="moderation_user_mute"),
    path("moderation/users/<str:username>/unmute/", views.user_unmute, name="moderation_user_unmute"),
    path("report/user/<str:username>/", views.report_user, name="report_user"),
]
