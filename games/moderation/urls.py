"""Moderation pages (staff with accounts.moderate) and the players' report pages."""

from django.urls import path

from games.moderation import table_views, user_views

urlpatterns = [
    path("moderation/users/<str:username>/", user_views.user_page, name="moderation_user"),
    path("moderation/users/<str:username>/ban/", user_views.user_ban, name="moderation_user_ban"),
    path("moderation/users/<str:username>/unban/", user_views.user_unban, name="moderation_user_unban"),
    path("moderation/users/<str:username>/mute/", user_views.user_mute, name="moderation_user_mute"),
    path("moderation/users/<str:username>/unmute/", user_views.user_unmute, name="moderation_user_unmute"),
    path("report/user/<str:username>/", user_views.report_user, name="report_user"),
    path("moderation/tables/<int:table_id>/", table_views.table_page, name="moderation_table"),
    path("moderation/tables/<int:table_id>/close/", table_views.table_close, name="moderation_table_close"),
    path("moderation/tables/<int:table_id>/kick/", table_views.seat_kick, name="moderation_table_kick"),
    path("moderation/tables/<int:table_id>/unkick/", table_views.kick_lift, name="moderation_table_unkick"),
    path("moderation/chat/<int:message_id>/delete/", table_views.chat_delete, name="moderation_chat_delete"),
    path("report/table/<int:table_id>/", table_views.report_table, name="report_table"),
]
