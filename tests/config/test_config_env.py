"""Deployment settings read from the environment (config/env.py)."""

from pathlib import Path

from config.env import database_from_url


def test_no_url_means_the_embedded_sqlite_database():
    assert database_from_url(None, Path("/srv/site")) == {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": Path("/srv/site/db.sqlite3"),
    }


def test_a_postgres_url_pools_connections_without_health_checks():
    settings = database_from_url("postgres://game:s%40cret@db.example:6543/double_up", Path("."))
    assert settings["ENGINE"] == "django.db.backends.postgresql"
    assert (settings["USER"], settings["PASSWORD"]) == ("game", "s@cret")
    assert (settings["HOST"], settings["PORT"], settings["NAME"]) == ("db.example", 6543, "double_up")
    assert settings["CONN_MAX_AGE"] == 0  # a connection goes back to the pool when Django closes it
    assert settings["CONN_HEALTH_CHECKS"] is False
    assert settings["OPTIONS"]["pool"]["max_size"] == 16
