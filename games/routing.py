from django.urls import path

from games.web.chat_consumer import ChatConsumer
from games.web.event_socket import EventConsumer
from games.web.event_watch import WatchConsumer
from games.web.lobby import LobbyConsumer
from games.web.table_consumer import TableConsumer

websocket_urlpatterns = [
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/table/<int:table_id>/chat/", ChatConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/event/<int:event_id>/", EventConsumer.as_asgi()),
    path("ws/event/<int:event_id>/tables/<int:event_table_id>/", WatchConsumer.as_asgi()),
]
