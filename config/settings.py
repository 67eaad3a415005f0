"""Django settings for Double Up online.

Embedded defaults (SQLite, in-memory channel layer) when DATABASE_URL / REDIS_URL
are unset; PostgreSQL and Redis when they are set. See docs/deployment.md.
"""

import os
from pathlib import Path

from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

from config.env import (
    cache_from_url,
    channel_layer_from_url,
    database_from_url,
    env_bool,
    env_list,
    redis_sentinels,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-change-me"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_tasks_db",  # the database queue of Django's tasks framework (docs/analysis.md)
    "accounts",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.NulInPathMiddleware",  # 404, not a database error, for %00 in a URL
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "games.moderation.middleware.BannedUserMiddleware",  # logs a banned user out on any request
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: a sync-only middleware makes every one above it run in one thread. Under ASGI an
    # async-capable middleware below the last sync-only one runs async, and Django's
    # MiddlewareMixin then hops to a thread and back for each of its process_request and
    # process_response: three more waits for a busy event loop per request.
    "accounts.middleware.UserLanguageMiddleware",  # remembers set_language per user
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",  # csp_nonce for the few inline scripts
                "accounts.context_processors.preferences",  # four-colour deck, sounds
            ],
        },
    },
    {
        # The table's live regions, rendered per reader after every action (docs/table-ui.md):
        # compiled Jinja2 templates in games/jinja2/, set up by games/jinja_env.py.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "APP_DIRS": True,
        "OPTIONS": {"environment": "games.jinja_env.environment"},
    },
]

# --- Security headers (docs/deployment.md) ----------------------------------------------
# On in every mode, so the tests and the browser tests run under the policy production has.
# Scripts only from this site (an inline one needs the request's nonce); styles from this
# site, plus style attributes (the deal meter's width); sockets to this site only.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src-elem": [CSP.SELF],
    "style-src-attr": [CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "media-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
PERMISSIONS_POLICY: dict[str, list[str]] = {  # a card game needs none of the browser's powerful features
    "accelerometer": [],
    "camera": [],
    "display-capture": [],
    "geolocation": [],
    "gyroscope": [],
    "magnetometer": [],
    "microphone": [],
    "midi": [],
    "payment": [],
    "usb": [],
}
# Behind a TLS-terminating proxy (nginx) that sets X-Forwarded-Proto; only where the proxy
# overwrites that header, never when clients reach the server directly.
if env_bool("BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Production (DEBUG off) is HTTPS only unless the environment says otherwise.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
# The request.META key holding the client's address (behind nginx: HTTP_X_REAL_IP).
LOGIN_THROTTLE_IP_META = os.environ.get("LOGIN_THROTTLE_IP_META", "REMOTE_ADDR")
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

DATABASES = {"default": database_from_url(os.environ.get("DATABASE_URL"), BASE_DIR)}
REDIS_SENTINELS = redis_sentinels(os.environ.get("REDIS_SENTINELS"))
CHANNEL_LAYERS = {"default": channel_layer_from_url(os.environ.get("REDIS_URL"), REDIS_SENTINELS)}
CACHES = {
    "default": cache_from_url(
        os.environ.get("REDIS_URL"), os.environ.get("CACHE_KEY_PREFIX") or "doubleup", REDIS_SENTINELS
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [  # Django's checks in the site's own words (accounts/passwords.py)
    {"NAME": "accounts.passwords.LikeYourNameValidator"},
    {"NAME": "accounts.passwords.LongEnoughValidator"},
    {"NAME": "accounts.passwords.NotCommonValidator"},
    {"NAME": "accounts.passwords.NotOnlyDigitsValidator"},
]
# Each may refuse a login after the right password (accounts.forms.LoginChecksMixin): a ban.
ACCOUNTS_LOGIN_CHECKS = ["games.moderation.login.ban_refusal"]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("zh-hans", _("Simplified Chinese"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"

# Django 6.1 mailers: the console by default; SMTP when EMAIL_HOST is set.
if os.environ.get("EMAIL_HOST"):
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": os.environ["EMAIL_HOST"],
                "port": int(os.environ.get("EMAIL_PORT", "587")),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS", True),
            },
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Double Up <noreply@localhost>")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # Django's own default config already gave the "django" logger a console handler, and
    # it propagates to the root's: without this every line of it was printed twice.
    "loggers": {
        "django": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO"), "propagate": False}
    },
}

# Table runtime (docs/table-runtime.md): pauses the server keeps between timed steps.
GAMES_BOT_DELAY_MS = int(os.environ.get("GAMES_BOT_DELAY_MS", "700"))
# Bots that search (strong and up) think in this many worker processes per server process,
# at this lower CPU priority (games/runtime/thinking.py, docs/bots.md); 0: in a thread.
# Unset or empty (as config/production.env.example leaves it): half the cores, at least one.
GAMES_BOT_THINKERS = int(os.environ.get("GAMES_BOT_THINKERS") or max(1, (os.cpu_count() or 1) // 2))
# The bot level "Play now" seats for a player who chose none (games/bot_levels.py): a fair
# middle, not the strongest (a newcomer's first hands); guests get the gentlest level. When
# this build's bots lack it, the strongest level they have.
GAMES_BOT_LEVEL = os.environ.get("GAMES_BOT_LEVEL", "basic")
GAMES_BOT_THINKER_NICE = int(os.environ.get("GAMES_BOT_THINKER_NICE", "10"))
GAMES_NEXT_HAND_DELAY_MS = int(os.environ.get("GAMES_NEXT_HAND_DELAY_MS", "8000"))
GAMES_DEAL_LEAD_IN_MS = int(os.environ.get("GAMES_DEAL_LEAD_IN_MS", "500"))
# The deal's pace (ms per card) of a table created without one: Play now, a guest's table.
GAMES_DEAL_PACE_MS = int(os.environ.get("GAMES_DEAL_PACE_MS", "150"))
# PostgreSQL connections of each server process's event loop for the write path's one
# statement (games/runtime/table_rows.py): commits in flight at once; 0: every write goes
# through the process's database thread.
GAMES_WRITE_CONNECTIONS = int(os.environ.get("GAMES_WRITE_CONNECTIONS", "4"))
# For tests and benchmarks only: when set, every deck is shuffled from this seed and the
# hand's number (games/runtime/play.py), so a run deals the same hands; unset, from secrets.
GAMES_DECK_SEED = os.environ.get("GAMES_DECK_SEED", "")
# A table with no person connected this long is closed as abandoned (games/runtime/lifecycle.py).
GAMES_ABANDON_AFTER_S = int(os.environ.get("GAMES_ABANDON_AFTER_S", "3600"))

# Background jobs (docs/analysis.md): Django's tasks framework on django-tasks-db's queue
# (a table in this database), run by `manage.py analysis_worker`.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default", "analysis"]}}
# Every finished hand with a person at the table is analysed: by which bot level's
# evaluator (games.bots.evaluate_options), with how many seconds of search per decision.
GAMES_ANALYSIS = env_bool("GAMES_ANALYSIS", True)
GAMES_ANALYSIS_LEVEL = os.environ.get("GAMES_ANALYSIS_LEVEL", "expert")
GAMES_ANALYSIS_BUDGET = float(os.environ.get("GAMES_ANALYSIS_BUDGET", "0.2"))
GAMES_ANALYSIS_NICE = int(os.environ.get("GAMES_ANALYSIS_NICE", "10"))  # the worker's os.nice

# The ratings' covering index (games.RatingChange, INCLUDE columns) is PostgreSQL's; SQLite,
# the embedded default of `.ci/serve`, builds it without them, which is fine there.
SILENCED_SYSTEM_CHECKS = ["models.W040"]
