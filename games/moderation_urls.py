"""Moderation of tables and chat (staff with accounts.moderate) and reporting a table (players)."""
from django.urls import path

from games import moderation_views as views

urlpatterns = [
    path("moderation/tables/<int:table_id>/", views.table_page, name="moderation_table"),
    path("moderation/tables/<int:table_id>/close/", views.table_close, name="moderation_table_close"),
    path("moderation/tables/<int:table_id>/kick/", views.seat_kick, name="moderation_table_kick"),
    path("moderation/tables/<int:table_id>/unkick/", views.kick_lift, name="moderation_table_unkick"),
    path("moderation/chat/<int:message_id>/delete/", views.chat_delete, name="moderation_chat_delete"),
    path("report/table/<int:table_id>/", views.report_table, name="report_table"),
]
