from django.urls import path

from games.friends import views as friend_views
from games.lessons import views as lesson_views
from games.ratings import views as rating_views
from games.web import event_moderation, event_views, history_views, rules_views, views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("tables/new/", views.create_table, name="create_table"),
    path("play-now/", views.play_now, name="play_now"),
    path("guest/play/", views.play_as_guest, name="play_as_guest"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/last-match/", views.table_last_match, name="table_last_match"),
    path("tables/<int:table_id>/hands/<int:hand_no>/", views.table_hand, name="table_hand"),
    path("join/<str:code>/", views.invite, name="invite"),
    path("tables/<int:table_id>/invite/", friend_views.invite, name="invite_friend"),
    path("friends/", friend_views.friends_page, name="friends"),
    path("players/<str:username>/follow/", friend_views.follow, name="follow"),
    path("players/<str:username>/block/", friend_views.block, name="block"),
    path("rules/", rules_views.rules_page, name="rules"),
    path("learn/", lesson_views.learn, name="learn"),
    path("learn/<slug:slug>/", lesson_views.lesson, name="lesson"),
    path("leaderboard/", rating_views.leaderboard, name="leaderboard"),
    # A player's page is their record: the web layer composes it, under the accounts prefix.
    path("accounts/u/<str:username>/", history_views.profile, name="profile"),
    path("matches/", history_views.my_matches, name="my_matches"),
    path("matches/<int:match_id>/", history_views.match_detail, name="match_detail"),
    path("matches/<int:match_id>/export/", history_views.match_export, name="match_export"),
    path("moderation/matches/<int:match_id>/void/", history_views.match_void, name="moderation_match_void"),
    path("replays/open/", history_views.replay_upload, name="replay_upload"),
    path("hands/<int:hand_id>/replay/", history_views.hand_replay, name="hand_replay"),
    path("events/", event_views.events_list, name="events"),
    path("events/new/", event_views.event_create, name="event_create"),
    path("events/<int:event_id>/", event_views.event_page, name="event"),
    path("events/<int:event_id>/tables/<int:event_table_id>/", event_views.event_watch, name="event_watch"),
    path("events/<int:event_id>/register/", event_views.event_register, name="event_register"),
    path("events/<int:event_id>/results/adjust/", event_moderation.event_results, name="event_results_moderate"),
    path("events/<int:event_id>/withdraw/", event_views.event_withdraw, name="event_withdraw"),
    path("events/<int:event_id>/check-in/", event_views.event_check_in, name="event_check_in"),
    path("events/<int:event_id>/partner/confirm/", event_views.event_partner_confirm, name="event_partner_confirm"),
    path("events/<int:event_id>/partner/decline/", event_views.event_partner_decline, name="event_partner_decline"),
]
