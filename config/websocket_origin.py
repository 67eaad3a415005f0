"""The websocket Origin check: scheme, host and port, not the host alone.

Channels' AllowedHostsOriginValidator compares only the Origin's host with ALLOWED_HOSTS,
so a page served from another port or scheme of an allowed host (another service on the
machine, plain http beside https) could drive a player's socket. A socket here must come
from this very site: its Origin equals the scheme and Host it connected to, or is one of
CSRF_TRUSTED_ORIGINS (the same list Django's CSRF check trusts).
"""

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings

DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(scheme: str, netloc: str) -> tuple[str, str, int] | None:
    parts = urlsplit(f"{scheme}://{netloc}")
    try:
        port = parts.port or DEFAULT_PORTS.get(scheme)
    except ValueError:  # a port that is no number
        return None
    if not parts.hostname or port is None:
        return None
    return scheme, parts.hostname, port


def _site_scheme(scope: dict, headers: dict[bytes, bytes]) -> str:
    """https when the socket is wss, or when the TLS-terminating proxy says so."""
    if scope.get("scheme") == "wss":
        return "https"
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        name = proxy[0].removeprefix("HTTP_").replace("_", "-").lower().encode()
        if headers.get(name, b"").decode("latin-1") == proxy[1]:
            return "https"
    return "http"


def origin_allowed(scope: dict) -> bool:
    headers = dict(scope.get("headers", []))
    origin = headers.get(b"origin", b"").decode("latin-1")
    host = headers.get(b"host", b"").decode("latin-1")
    if not origin or not host:
        return False
    parts = urlsplit(origin)
    claimed = _origin(parts.scheme, parts.netloc)
    if claimed is None:
        return False
    if claimed == _origin(_site_scheme(scope, headers), host):
        return True
    trusted = (urlsplit(o) for o in settings.CSRF_TRUSTED_ORIGINS)
    return claimed in {_origin(t.scheme, t.netloc) for t in trusted}


class SameOriginValidator:
    """ASGI middleware: refuse (close before accept) a websocket from any other origin."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            denier = WebsocketDenier()
            return await denier(scope, receive, send)
        return await self.application(scope, receive, send)
