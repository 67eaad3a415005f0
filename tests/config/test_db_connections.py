"""A real server process (daphne) does not keep a database connection per HTTP request:
under ASGI each request runs in a thread of its own, and gives its connection back to the
process's pool when it finishes (config/env.py)."""

import urllib.request

import pytest
from django.db import connection

from tests import servers

pytestmark = pytest.mark.django_db(transaction=True)


NAME = "connections-test"  # the server's sessions' application_name: other processes may share the database


def server_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [NAME])
        return cursor.fetchone()[0]


def test_http_requests_leave_no_connection_open():
    if connection.vendor != "postgresql":
        pytest.skip("counts PostgreSQL's sessions")
    server = servers.Server(DATABASE_URL=servers.test_database_url(NAME)).start()
    try:
        for _ in range(30):
            with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/") as response:  # the lobby reads tables
                assert response.status == 200
        # The pool's few (a request's and the sockets' database thread's at once), not 30.
        assert server_connections() <= 4, "the server keeps a connection per request"
    finally:
        server.kill()
