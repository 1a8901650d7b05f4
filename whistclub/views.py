import asyncio
import hmac
import uuid
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connections
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from games import registry
from games.models import older_tables, tables_in_play
from leagues.models import upcoming_evenings
from whistclub.accounts.models import Profile

# Every check of /healthz together answers within this (load balancers time out too).
HEALTH_TIMEOUT_SECONDS = 2.0
# Database probes run here, not in the request's thread: a probe stuck on an unreachable
# database is abandoned at the deadline, and at most two such threads wait for it to give up.
_PROBE_THREADS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="healthz")


def home(request):
    """The site's front door: a game one tap away, and for a signed-in person what they were
    in the middle of (their tables in play, each club's next evening)."""
    context = {"games": [(game, game.seats - 1) for game in registry.all_games()]}
    if request.user.is_authenticated:
        context["your_tables"] = tables_in_play(request.user.pk)[:5]
        context["has_older_tables"] = bool(older_tables(request.user.pk, count=1))
        context["next_evenings"] = next_evening_of_each_club(request.user)
    return render(request, "whistclub/home.html", context)


def next_evening_of_each_club(user, clubs: int = 5) -> list:
    """The soonest evening of each club the person is a member of, soonest first."""
    seen, evenings = set(), []
    for evening in upcoming_evenings(user=user)[:50]:
        club_id = evening.season.league.club_id
        if club_id not in seen:
            seen.add(club_id)
            evenings.append(evening)
        if len(evenings) == clubs:
            break
    return evenings


@require_POST
def switch_language(request):
    """Django's set_language, and a signed-in person's choice is kept on their profile."""
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        Profile.objects.filter(user=request.user).update(language=language)
    return set_language(request)


def _check_database(timeout: float) -> dict:
    """One query on a connection of its own; with the psycopg pool, waiting at most ``timeout``
    for a free connection (the pool's own wait, for requests, is longer)."""
    # A wrapper of its own: the request's may belong to another thread, and is not ours to close.
    connection = connections.create_connection("default")
    vendor = connection.vendor
    pool = connection.pool if connection.settings_dict.get("OPTIONS", {}).get("pool") else None
    try:
        if pool is not None:
            pool.open()  # Django opens it at a first query; /healthz may come first (no-op after)
            with pool.connection(timeout=timeout) as conn:
                conn.execute("SELECT 1").fetchone()
        else:
            try:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT 1")
                    cursor.fetchone()
            finally:
                connection.close()
    except Exception as exc:  # any failure is what the probe must report, not raise
        return {"ok": False, "vendor": vendor, "error": f"{type(exc).__name__}: {exc}"[:200]}
    return {"ok": True, "vendor": vendor}


async def _check_channel_layer(deadline: float) -> dict:
    loop = asyncio.get_running_loop()
    layer = get_channel_layer()
    backend = type(layer).__name__ if layer else None
    if layer is None:
        return {"ok": False, "backend": None, "error": "no channel layer configured"}
    try:
        # A real round trip: for Redis this proves publish and subscribe both work.
        channel = await asyncio.wait_for(layer.new_channel("healthz."), deadline - loop.time())
        token = uuid.uuid4().hex
        await asyncio.wait_for(layer.send(channel, {"type": "healthz", "token": token}),
                               deadline - loop.time())
        message = await asyncio.wait_for(layer.receive(channel), deadline - loop.time())
        if message.get("token") != token:
            return {"ok": False, "backend": backend, "error": "round trip returned another message"}
    except TimeoutError:
        return {"ok": False, "backend": backend,
                "error": f"no answer within {HEALTH_TIMEOUT_SECONDS:g} s"}
    except Exception as exc:
        return {"ok": False, "backend": backend, "error": f"{type(exc).__name__}: {exc}"[:200]}
    return {"ok": True, "backend": backend}


async def _database_within(deadline: float) -> dict:
    loop = asyncio.get_running_loop()
    # Not the request's thread: a stuck query must not hold it past the deadline.
    check = sync_to_async(_check_database, thread_sensitive=False,
                          executor=_PROBE_THREADS)(deadline - loop.time())
    try:
        return await asyncio.wait_for(check, deadline - loop.time())
    except TimeoutError:
        return {"ok": False, "vendor": connections["default"].vendor,
                "error": f"no answer within {HEALTH_TIMEOUT_SECONDS:g} s"}


def _bearer_token_matches(request) -> bool:
    token = settings.HEALTHZ_TOKEN
    given = request.headers.get("Authorization", "")
    return bool(token) and hmac.compare_digest(given.encode(), f"Bearer {token}".encode())


async def healthz(request):
    """Liveness for load balancers: 200 ``{"status": "ok"}`` when the database and the channel
    layer answer within HEALTH_TIMEOUT_SECONDS in all, else 503 ``{"status": "unhealthy"}``.

    What was checked and what failed only for staff (signed in; not while the database, where
    sessions live, is failing) or with ``Authorization: Bearer <HEALTHZ_TOKEN>``.
    """
    deadline = asyncio.get_running_loop().time() + HEALTH_TIMEOUT_SECONDS
    database, channel_layer = await asyncio.gather(_database_within(deadline),
                                                   _check_channel_layer(deadline))
    healthy = database["ok"] and channel_layer["ok"]
    body = {"status": "ok" if healthy else "unhealthy"}
    detailed = _bearer_token_matches(request)
    if not detailed and database["ok"] and settings.SESSION_COOKIE_NAME in request.COOKIES:
        user = await request.auser()
        detailed = user.is_active and user.is_staff
    if detailed:
        body.update(database=database, channel_layer=channel_layer)
    response = JsonResponse(body, status=200 if healthy else 503)
    response["Cache-Control"] = "no-store"
    return response
