"""Settings for whistclub.

Embedded defaults (SQLite, in-memory channel layer, DEBUG on) make ``make run`` work on a bare
machine; production sets the variables listed in README.md.  Malformed values stop start-up
with a message naming the variable (see ``whistclub.env``).
"""

import sys
from datetime import timedelta
from pathlib import Path

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from whistclub.env import (
    channel_layer_prefix,
    database_from_env,
    env_bool,
    env_float,
    env_int,
    env_list,
    env_networks,
    env_str,
    env_timezone,
    redis_urls_from_env,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", True)

# A development key only when DEBUG is on: a production process without SECRET_KEY must not start.
_DEV_SECRET_KEY = "django-insecure-whistclub-development-key-do-not-use-in-production"
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = _DEV_SECRET_KEY

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off, e.g. whist.example.org")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
for _origin in CSRF_TRUSTED_ORIGINS:
    if not _origin.startswith(("http://", "https://")):
        raise ImproperlyConfigured(
            f"CSRF_TRUSTED_ORIGINS items must start with http:// or https://; got {_origin!r}"
        )

# The site's address as people reach it, for links in e-mails sent without a request (the
# reminders before events, from the periodic command): SITE_ADDRESS, else the first
# CSRF_TRUSTED_ORIGINS entry without a wildcard, else the development server's.
SITE_ADDRESS = (env_str("SITE_ADDRESS")
                or next((o for o in CSRF_TRUSTED_ORIGINS if "*" not in o), "http://localhost:8000")
                ).rstrip("/")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "csp",
    "axes",
    "whistclub",
    "whistclub.accounts",
    "games",
    "leagues",
    "events",
    "club_events",
    "ratings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "whistclub.accounts.middleware.PreferredLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "whistclub.replicas.ReadYourWritesMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: turns a refused login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "whistclub.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = None
ASGI_APPLICATION = "whistclub.asgi.application"

DATABASES = {"default": database_from_env("DATABASE_URL", str(BASE_DIR / "db.sqlite3"))}
# A streaming replica of the primary, for the pages many people read (whistclub/replicas.py).
if env_str("DATABASE_REPLICA_URL"):
    DATABASES["replica"] = database_from_env("DATABASE_REPLICA_URL", "")
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
    DATABASE_ROUTERS = ["whistclub.replicas.ReplicaRouter"]
# How long a person's reads stay on the primary after they changed something.
DATABASE_REPLICA_LAG_SECONDS = env_int("DATABASE_REPLICA_LAG_SECONDS", 10, minimum=1)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# One Redis URL, or several separated by commas: the channel layer shards over them.
REDIS_URLS = redis_urls_from_env("REDIS_URL")
REDIS_URL = REDIS_URLS[0] if REDIS_URLS else ""
if REDIS_URLS:
    # The pub/sub layer: several daphne processes share groups through Redis (docs/deploy.md).
    # With several servers channels_redis puts each group and channel on one of them by a
    # consistent hash of its name, so a table's messages always meet on the same server.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": REDIS_URLS, "prefix": channel_layer_prefix()},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# The cache (the kept standings: leagues/standings.py).  With Redis, one cache the serving
# processes and their follow-up workers share, so rows counted by a worker after a change are
# the ones every process shows (the first server only: Django's Redis cache reads its other
# addresses as replicas, not shards).  Without it, each process keeps its own, as Django does.
if REDIS_URLS:
    # Soft: with Redis unreachable, the pages count again what they would have found kept.
    CACHES = {"default": {"BACKEND": "whistclub.soft_cache.SoftRedisCache",
                          "LOCATION": REDIS_URLS[0], "KEY_PREFIX": channel_layer_prefix(),
                          "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Login throttling (django-axes): after LOGIN_FAILURE_LIMIT wrong passwords for one username from
# one client address, that pair is refused for LOGIN_COOLOFF_MINUTES, the right password included.
# Other people on the same network, and the same person elsewhere, are not affected.  Resetting
# the password by email lifts the lockout (whistclub.accounts.views.PasswordResetConfirm).
AUTHENTICATION_BACKENDS = [
    "whistclub.accounts.throttling.LoginThrottle",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True  # a successful login forgets the earlier failures
# The cool-off runs from the lockout: trying again while locked out does not prolong it.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "whistclub.accounts.views.locked_out"
# The client's address: REMOTE_ADDR, or behind a proxy listed in TRUSTED_PROXIES (nginx on the
# same machine by default) the last address of X-Forwarded-For that is not such a proxy.
TRUSTED_PROXIES = env_networks("TRUSTED_PROXIES", ["127.0.0.1", "::1"])
AXES_CLIENT_IP_CALLABLE = "whistclub.accounts.throttling.client_ip"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Dates as each language writes them: Django's formats, English's as in Britain.
FORMAT_MODULE_PATH = ["whistclub.formats"]
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("fr", _("French")),
    ("nl", _("Dutch")),
    ("pt", _("Portuguese")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = env_timezone("TIME_ZONE", "Europe/London")
USE_TZ = True

STATIC_URL = "static/"
# Where collectstatic gathers the files that nginx serves in production (docs/deploy.md).
STATIC_ROOT = env_str("STATIC_ROOT") or BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Email: the console by default (sign-up and password-reset links appear in the server's
# output); SMTP as soon as EMAIL_HOST is set.
EMAIL_HOST = env_str("EMAIL_HOST")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1)
    EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
    EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "whistclub <noreply@localhost>")
# What one club may have the site send in a day (its organisers' e-mails about evenings and
# the requests to confirm an address, one per recipient), and how long a confirmation link
# works (leagues/club_mail.py, leagues/confirmations.py; docs/leagues.md).
CLUB_EMAILS_PER_DAY = env_int("CLUB_EMAILS_PER_DAY", 200, minimum=1)
MEMBER_EMAIL_CONFIRMATION_DAYS = env_int("MEMBER_EMAIL_CONFIRMATION_DAYS", 7, minimum=1)

# Production hardening: on by default whenever DEBUG is off, each switchable for unusual setups.
# Behind nginx, the proxy terminates TLS and says so in X-Forwarded-Proto (docs/deploy.md).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# The largest request body the site reads, files included (whistclub/request_limits.py holds
# every body to it, before Django and under daphne alone): nginx's client_max_body_size is the
# same figure (deploy/nginx/whistclub-locations.conf), so both refuse the same requests.
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

# Content-Security-Policy (django-csp): everything from the site itself, nothing inline.  Scripts
# are files in static/ (htmx, its ws extension, static/js/*.js); no inline <script>, no on*=
# attributes, no hx-on, and htmx is told not to eval (base.html's htmx-config).  Styles are
# files too: no template has a style= attribute, and htmx's own indicator <style> is switched
# off, so 'unsafe-inline' is not needed for styles either.  connect-src 'self' covers the
# site's own ws:/wss: sockets.  frame-ancestors 'none' is X_FRAME_OPTIONS for CSP browsers.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],  # data: for base.html's empty favicon
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# /healthz shows what it checked and what failed to staff, or to a request bearing
# "Authorization: Bearer <HEALTHZ_TOKEN>" (monitoring); to anyone else only ok/unhealthy.
HEALTHZ_TOKEN = env_str("HEALTHZ_TOKEN")

# Computer players wait this long before acting, so people can follow the play (0 in tests).
COMPUTER_DELAY_SECONDS = env_float("COMPUTER_DELAY_SECONDS", 0.8, minimum=0)

# Follow-up work after a commit (a finished hand recorded by its league, the ratings, a
# fixture's completion) is kept in the database and done by a worker process of each serving
# process (games.followups), which looks every FOLLOW_UP_POLL_SECONDS besides being woken at
# each commit.  FOLLOW_UPS_INLINE: done right after the commit on the committing thread instead
# (the unit tests, which see every effect at once; the default under pytest).
FOLLOW_UPS_INLINE = env_bool("FOLLOW_UPS_INLINE", "pytest" in sys.modules)
FOLLOW_UP_POLL_SECONDS = env_float("FOLLOW_UP_POLL_SECONDS", 5.0, minimum=0.1)
# The same worker starts the events whose start time has come, sends the e-mails an hour before
# them and looks at their round clocks, every EVENTS_LOOK_SECONDS (events.periodic): an event
# starts at most that late, with no cron.
EVENTS_LOOK_SECONDS = env_float("EVENTS_LOOK_SECONDS", 20.0, minimum=1.0)
# After each change of a season's results, the follow-up worker counts its standings again and
# keeps them (leagues.results_version), so no visitor waits for the count.  Only worth it with a
# cache every process shares (Redis above); off under pytest, where the tests that need it turn
# it on.
WARM_STANDINGS_AFTER_CHANGES = env_bool(
    "WARM_STANDINGS_AFTER_CHANGES", bool(REDIS_URLS) and "pytest" not in sys.modules)

# A finished trick stays in the middle of the table, its winner marked, this long before the
# page gathers it (0 in tests; the pages read it, the server never waits).
TRICK_PAUSE_SECONDS = env_float("TRICK_PAUSE_SECONDS", 1.5, minimum=0)

# Flood control of table sockets: messages per second a client may send, and the burst allowed.
WS_RATE_PER_SECOND = env_float("WS_RATE_PER_SECOND", 10.0, minimum=0.1)
WS_BURST = env_int("WS_BURST", 20, minimum=1)
# Limits per person (games.limits), within one process: open sockets per account, and per
# address for visitors who are not signed in; one message bucket shared by a person's sockets.
# The address is the client's by whistclub.proxies (TRUSTED_PROXIES above).
WS_MAX_SOCKETS_PER_USER = env_int("WS_MAX_SOCKETS_PER_USER", 12, minimum=1)
WS_MAX_SOCKETS_PER_ADDRESS = env_int("WS_MAX_SOCKETS_PER_ADDRESS", 40, minimum=1)
WS_PERSON_RATE_PER_SECOND = env_float("WS_PERSON_RATE_PER_SECOND", 15.0, minimum=0.1)
WS_PERSON_BURST = env_int("WS_PERSON_BURST", 30, minimum=1)
# Lines said at tables (games.chat) per person, within one process: the burst, then this many
# a minute on average.
CHAT_BURST = env_int("CHAT_BURST", 5, minimum=1)
CHAT_LINES_PER_MINUTE = env_float("CHAT_LINES_PER_MINUTE", 12.0, minimum=0.1)
# The live lobby is rendered at most once per this many seconds per process (games.lobby_feed).
LOBBY_MIN_INTERVAL_SECONDS = env_float("LOBBY_MIN_INTERVAL_SECONDS", 0.5, minimum=0)
# Presence is a lease (games.presence): each process renews its sockets' rows every
# PRESENCE_HEARTBEAT_SECONDS (0: never, as in unit tests) and sweeps for seats whose person is
# gone; a row not renewed for PRESENCE_LEASE_SECONDS belongs to a dead process.  A seat is
# marked away PRESENCE_AWAY_AFTER_SECONDS after its last socket closed (a reload changes nothing).
PRESENCE_HEARTBEAT_SECONDS = env_float("PRESENCE_HEARTBEAT_SECONDS", 10.0, minimum=0)
PRESENCE_LEASE_SECONDS = env_float("PRESENCE_LEASE_SECONDS", 30.0, minimum=1)
PRESENCE_AWAY_AFTER_SECONDS = env_float("PRESENCE_AWAY_AFTER_SECONDS", 3.0, minimum=0)
# Computer players think in a pool of worker processes (0: in the serving process, as in
# tests), each decision cut off after COMPUTER_TIME_LIMIT_SECONDS (the easy heuristic then answers; see docs/computer-players.md).
COMPUTER_WORKERS = env_int("COMPUTER_WORKERS", 1, minimum=0)
COMPUTER_TIME_LIMIT_SECONDS = env_float("COMPUTER_TIME_LIMIT_SECONDS", 2.0, minimum=0.05)
# Hand reviews (games.reviews) run in worker processes of their own, never beside a table's
# decisions: a review takes seconds.  0: on a thread of the calling process (tests only).
REVIEW_WORKERS = env_int("REVIEW_WORKERS", 1, minimum=0)
# The reviews' queue (rows of the database, shared by every process): a person may have this
# many reviews waiting or being prepared at once, and the site this many waiting in all (about
# what the workers do in a minute); beyond, the page says to try again in a minute.
# Guests (whistclub.accounts.guests): started per address and hour, tables in play at once,
# days a guest who never signed up is kept after their last visit.
GUESTS_PER_ADDRESS_PER_HOUR = env_int("GUESTS_PER_ADDRESS_PER_HOUR", 5, minimum=1)
GUEST_TABLES_IN_PLAY = env_int("GUEST_TABLES_IN_PLAY", 3, minimum=1)
GUEST_DAYS = env_int("GUEST_DAYS", 30, minimum=1)
REVIEW_LIMIT_PER_PERSON = env_int("REVIEW_LIMIT_PER_PERSON", 3, minimum=1)
REVIEW_QUEUE_LIMIT = env_int("REVIEW_QUEUE_LIMIT", 20, minimum=1)
# The pool on machines of its own (games/computer_server.py): the site asks COMPUTER_SERVICE_URL, whose
# processes run `manage.py serve_computer_players`; both sides hold COMPUTER_SERVICE_TOKEN.  A
# decision not back within the time limit plus COMPUTER_SERVICE_SLACK_SECONDS (the network) is
# played by the easy heuristic, in the site's process, as when a local worker overruns.
COMPUTER_SERVICE_URL = env_str("COMPUTER_SERVICE_URL")
COMPUTER_SERVICE_TOKEN = env_str("COMPUTER_SERVICE_TOKEN")
COMPUTER_SERVICE_SLACK_SECONDS = env_float("COMPUTER_SERVICE_SLACK_SECONDS", 0.5, minimum=0)
# A service whose machine does not even take the connection within this is as good as down.
COMPUTER_SERVICE_CONNECT_SECONDS = env_float("COMPUTER_SERVICE_CONNECT_SECONDS", 0.5, minimum=0.01)
# The service's side: connections open at once (beyond, a 503 at once), and the seconds a
# request has to arrive whole (a connection that sends nothing, or a byte at a time, is closed).
COMPUTER_SERVICE_MAX_CONNECTIONS = env_int("COMPUTER_SERVICE_MAX_CONNECTIONS", 64, minimum=1)
COMPUTER_SERVICE_READ_SECONDS = env_float("COMPUTER_SERVICE_READ_SECONDS", 5.0, minimum=0.1)
if COMPUTER_SERVICE_URL and not COMPUTER_SERVICE_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured(
        f"COMPUTER_SERVICE_URL must be an http:// or https:// URL; got {COMPUTER_SERVICE_URL!r}")
if COMPUTER_SERVICE_URL and len(COMPUTER_SERVICE_TOKEN) < 16:
    raise ImproperlyConfigured(
        "COMPUTER_SERVICE_TOKEN must be set (at least 16 characters) when COMPUTER_SERVICE_URL is")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO").upper()},
    # axes logs every successful login at INFO; failures and lockouts are warnings.
    "loggers": {"axes": {"level": "WARNING"}},
}
