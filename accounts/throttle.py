"""Login throttling: after LIMIT failed logins for a username or from an IP within
WINDOW seconds, further attempts are refused until that window ends.

State lives in Django's default cache (Redis in production), so every server process
sees the same counters. Each subject (username, IP) has a fixed window that starts at
its first failure: a counter key and a "window started" key, both expiring with the
window. See docs/accounts.md.
"""

import hashlib
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

DEFAULT_LIMIT = 5
DEFAULT_WINDOW = 15 * 60


def _limit() -> int:
    return getattr(settings, "LOGIN_THROTTLE_LIMIT", DEFAULT_LIMIT)


def _window() -> int:
    return getattr(settings, "LOGIN_THROTTLE_WINDOW", DEFAULT_WINDOW)


def count_in_window(key: str, window: int) -> int:
    """One more in a fixed window of `window` seconds that starts at the first count; the
    new total. Shared by the login, password-reset and chat limits; atomic in Redis."""
    cache.add(key, 0, window)
    try:
        return cache.incr(key)  # atomic in Redis; keeps the key's expiry
    except ValueError:  # the window expired between add() and incr()
        cache.set(key, 1, window)
        return 1


def client_ip(request: HttpRequest) -> str:
    """The client's address. Behind a reverse proxy, set LOGIN_THROTTLE_IP_META to the
    META key the proxy fills in reliably (e.g. "HTTP_X_REAL_IP"); never trust a header
    that clients can send straight to the server."""
    key = getattr(settings, "LOGIN_THROTTLE_IP_META", "REMOTE_ADDR")
    return request.META.get(key, "") or request.META.get("REMOTE_ADDR", "") or "unknown"


def _subject_keys(*, username: str, ip: str) -> list[str]:
    # Usernames are case-folded (Alice and alice share a counter) and hashed so any
    # Unicode or length is a safe cache key.
    return [f"accounts:login-fail:user:{subject_digest(username)}", f"accounts:login-fail:ip:{subject_digest(ip)}"]


def subject_digest(subject: str) -> str:
    """A safe cache key part for any text (an address is case-folded like a username)."""
    return hashlib.sha256(subject.strip().casefold().encode()).hexdigest()[:32]


def login_throttle_wait(*, username: str, ip: str) -> int:
    """Seconds until a login for `username` from `ip` may be tried again; 0 = allowed now."""
    keys = _subject_keys(username=username, ip=ip)
    stored = cache.get_many([f"{key}:{part}" for key in keys for part in ("count", "start")])
    now, window, wait = time.time(), _window(), 0
    for key in keys:
        if stored.get(f"{key}:count", 0) >= _limit():
            started = stored.get(f"{key}:start", now)
            wait = max(wait, int(started + window - now) + 1)
    return min(wait, window)


def login_failure_record(*, username: str, ip: str) -> None:
    """Count one failed login against both the username and the IP."""
    now, window = time.time(), _window()
    for key in _subject_keys(username=username, ip=ip):
        if count_in_window(f"{key}:count", window) == 1:  # the first failure starts the window
            cache.set(f"{key}:start", now, window)


def login_throttle_clear(*, username: str) -> None:
    """Forget the username's failures after a successful login. The IP's count stays:
    a valid login of one account must not reset guessing at other accounts."""
    user_key = _subject_keys(username=username, ip="")[0]
    cache.delete_many([f"{user_key}:count", f"{user_key}:start"])


# --- password-reset requests ------------------------------------------------------------

RESET_LIMIT_PER_ADDRESS = 3  # mails one address may be sent per window
RESET_LIMIT_PER_IP = 10  # requests one client may make per window, whatever the address
RESET_WINDOW = 60 * 60


def password_reset_allowed(*, email: str, ip: str) -> bool:
    """Count one reset request against the address and the client; False once either is
    over its limit. Every address counts, known or not, so the answer says nothing about
    which addresses have accounts."""
    counts = [
        (count_in_window(f"accounts:reset:email:{subject_digest(email)}", RESET_WINDOW), RESET_LIMIT_PER_ADDRESS),
        (count_in_window(f"accounts:reset:ip:{subject_digest(ip)}", RESET_WINDOW), RESET_LIMIT_PER_IP),
    ]
    return all(count <= limit for count, limit in counts)
