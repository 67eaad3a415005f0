"""bench/live.py's data side: services, Django, bench users and sessions, tables, DB reads.

Every function here runs in the bench process (in one worker thread during the run).
"""

import os
from collections import Counter
from datetime import datetime
from urllib.parse import urlsplit

LOOPBACK = "127.0.0.1"


class CannotRun(Exception):
    """A service the benchmark needs is missing or not allowed."""


def check_services(database_url: str, redis_url: str | None, flush: bool) -> None:
    """PostgreSQL (its database created when missing) and, unless `redis_url` is None, Redis."""
    import psycopg
    import redis

    for url in (database_url, redis_url or database_url):
        host = urlsplit(url).hostname
        if host not in (LOOPBACK, "localhost", "::1"):
            raise CannotRun(f"only loopback services are allowed, got {host!r}")
    parts = urlsplit(database_url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
            if not conn.execute("select 1 from pg_database where datname = %s", (name,)).fetchone():
                conn.execute(f'create database "{name}"')
                print(f"created database {name}")
    except psycopg.Error as error:
        raise CannotRun(f"PostgreSQL at {parts.hostname}:{parts.port or 5432} is not usable ({error})") from None
    if redis_url is None:
        return
    try:
        client = redis.Redis.from_url(redis_url, socket_timeout=5)
        client.ping()
        if flush:
            client.flushdb()  # stale group members of an earlier run; this db is the bench's own
        client.close()
    except redis.RedisError as error:
        raise CannotRun(f"Redis at {redis_url} is not usable ({error})") from None


def setup_django(database_url, redis_url, secret_key):
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "DEBUG": "0",
            "SECRET_KEY": secret_key,
            "ALLOWED_HOSTS": LOOPBACK,
        }
    )
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)


def make_users(count: int) -> list:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    User = get_user_model()
    names = [f"bench{i:04d}" for i in range(count)]
    existing = set(User.objects.filter(username__in=names).values_list("username", flat=True))
    User.objects.bulk_create([User(username=n, password=make_password(None)) for n in names if n not in existing])
    by_name = {u.username: u for u in User.objects.filter(username__in=names)}
    return [by_name[n] for n in names]


def session_cookie(user) -> str:
    """What django.contrib.auth.login stores, in a database session (the cookie a browser holds)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def make_tables(dealing: int, playing: int, strong: int = 0):
    """Fresh tables (earlier bench tables are deleted); returns (dealing ids, playing ids, cookies).
    The last `strong` of the playing tables seat four strong bots instead of basic ones."""
    from django.contrib.sessions.models import Session

    from games.models import Seat, Table
    from games.runtime.tables import table_create

    Table.objects.filter(name__startswith="bench-").delete()
    Session.objects.all().delete()  # the bench database's own sessions only
    users = make_users(4 * (dealing + playing))
    cookies = [session_cookie(u) for u in users]
    deal_ids, play_ids = [], []
    for i in range(dealing):
        seated = users[4 * i : 4 * i + 4]
        table = table_create(owner=seated[0], name=f"bench-deal-{i}", deal_pace_ms=150)
        for position, user in enumerate(seated):
            Seat.objects.filter(table=table, position=position).update(user=user)
        deal_ids.append(table.pk)
    for i in range(playing):
        owner = users[4 * (dealing + i)]
        # A quick first deal (5 ms/card, 100 ms window) so the bots reach the play phase fast.
        level = Seat.Bot.STRONG if i >= playing - strong else Seat.Bot.BASIC
        table = table_create(owner=owner, name=f"bench-play-{i}", deal_pace_ms=5, last_chance_ms=100)
        Seat.objects.filter(table=table).update(bot=level)
        play_ids.append(table.pk)
    return deal_ids, play_ids, cookies


def start_matches(table_ids, deal_start: datetime | None = None, lead_in_ms: int = 200):
    """start_match through the write path; with `deal_start`, every deal starts at that instant."""
    from django.conf import settings
    from django.utils import timezone

    from games.runtime import writer
    from games.runtime.commands import Issuer

    for table_id in table_ids:
        if deal_start is not None:
            lead_in_ms = max(0, int((deal_start - timezone.now()).total_seconds() * 1000))
        settings.GAMES_DEAL_LEAD_IN_MS = lead_in_ms
        writer.table_act(table_id=table_id, action={"type": "start_match"}, expected_version=None, issuer=Issuer.SYSTEM)


def deal_plans(table_ids) -> dict:
    """table id → (deal_started_at, pace ms, [receiving seat of card i], version of the started deal)."""
    from games import engine
    from games.models import Table

    plans = {}
    for table in Table.objects.filter(pk__in=table_ids):
        order = engine.Game.from_json(table.state).deal_order()
        plans[table.pk] = (table.deal_started_at, table.deal_pace_ms, [seat for seat, _card in order], table.version)
    return plans


def phases(table_ids) -> Counter:
    from games.models import Table

    return Counter(Table.objects.filter(pk__in=table_ids).values_list("state__phase", flat=True))


def events_between(table_ids, start: datetime, end: datetime) -> list:
    from games.models import TableEvent

    return list(
        TableEvent.objects.filter(table_id__in=table_ids, created_at__gte=start, created_at__lte=end).values_list(
            "table_id", "seq", "created_at", "source"
        )
    )


def close_db():
    from django.db import connections

    connections.close_all()
