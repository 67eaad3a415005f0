"""ASGI entry point: HTTP through Django, websockets through Channels.

Websockets need a logged-in session (AuthMiddlewareStack) and an Origin that is this
site itself: an allowed host (AllowedHostsOriginValidator) with the scheme and port the
socket connected to (config/websocket_origin.py) — without it any site could drive a
player's socket (STYLE pitfall 6).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config import gc_policy, websocket_close  # noqa: E402
from config.websocket_origin import SameOriginValidator  # noqa: E402
from games import metrics  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402

websocket_close.install()  # an oversized message gets the close frame 1009, not a drop
metrics.serve_from_environment()  # this process's counters, when GAMES_METRICS_PORT is set (games/metrics.py)

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
    }
)

gc_policy.install()  # after everything start-up keeps is made (config/gc_policy.py)
