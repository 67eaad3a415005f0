"""config/websocket_origin.py: a socket's Origin must be this site's scheme, host and port."""

from config.websocket_origin import origin_allowed


def scope(origin: str, host: str = "play.example:8443", scheme: str = "ws", **extra: str) -> dict:
    headers = [(b"origin", origin.encode()), (b"host", host.encode())]
    headers += [(name.encode(), value.encode()) for name, value in extra.items()]
    return {"type": "websocket", "scheme": scheme, "headers": headers}


def test_same_scheme_host_and_port_is_allowed():
    assert origin_allowed(scope("http://play.example:8443"))
    assert origin_allowed(scope("https://play.example", host="play.example", scheme="wss"))
    assert origin_allowed(scope("https://play.example:443", host="play.example", scheme="wss"))


def test_another_port_or_scheme_is_refused():
    assert not origin_allowed(scope("http://play.example:9999"))
    assert not origin_allowed(scope("https://play.example:8443"))
    assert not origin_allowed(scope("http://play.example", host="play.example", scheme="wss"))


def test_behind_a_tls_proxy_the_forwarded_scheme_counts(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    proxied = {"x-forwarded-proto": "https"}
    assert origin_allowed(scope("https://play.example", host="play.example", **proxied))
    assert not origin_allowed(scope("http://play.example", host="play.example", **proxied))
    assert not origin_allowed(scope("https://play.example", host="play.example"))  # no header: plain http


def test_trusted_origins_are_allowed(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://cards.example"]
    assert origin_allowed(scope("https://cards.example"))
    assert not origin_allowed(scope("http://cards.example"))


def test_missing_or_malformed_headers_are_refused():
    assert not origin_allowed({"type": "websocket", "headers": [(b"host", b"play.example")]})
    assert not origin_allowed(scope("http://play.example:port", host="play.example"))
    assert not origin_allowed(scope("null"))
