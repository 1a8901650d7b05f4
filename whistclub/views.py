import asyncio
import uuid

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from whistclub.accounts.models import Profile

HEALTH_TIMEOUT_SECONDS = 2.0


def home(request):
    return render(request, "whistclub/home.html")


@require_POST
def switch_language(request):
    """Django's set_language, and a signed-in person's choice is kept on their profile."""
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        Profile.objects.filter(user=request.user).update(language=language)
    return set_language(request)


def _check_database() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure is what the probe must report, not raise
        return {"ok": False, "vendor": connection.vendor, "error": str(exc)[:200]}
    return {"ok": True, "vendor": connection.vendor}


async def _check_channel_layer() -> dict:
    layer = get_channel_layer()
    backend = type(layer).__name__ if layer else None
    if layer is None:
        return {"ok": False, "backend": None, "error": "no channel layer configured"}
    try:
        # A real round trip: for Redis this proves publish and subscribe both work.
        channel = await asyncio.wait_for(layer.new_channel("healthz."), HEALTH_TIMEOUT_SECONDS)
        token = uuid.uuid4().hex
        await asyncio.wait_for(layer.send(channel, {"type": "healthz", "token": token}),
                               HEALTH_TIMEOUT_SECONDS)
        message = await asyncio.wait_for(layer.receive(channel), HEALTH_TIMEOUT_SECONDS)
        if message.get("token") != token:
            return {"ok": False, "backend": backend, "error": "round trip returned another message"}
    except Exception as exc:
        return {"ok": False, "backend": backend, "error": f"{type(exc).__name__}: {exc}"[:200]}
    return {"ok": True, "backend": backend}


async def healthz(request):
    """Liveness for load balancers: 200 when the database and the channel layer answer, else 503."""
    database = await sync_to_async(_check_database, thread_sensitive=True)()
    channel_layer = await _check_channel_layer()
    healthy = database["ok"] and channel_layer["ok"]
    return JsonResponse(
        {"status": "ok" if healthy else "error", "database": database,
         "channel_layer": channel_layer},
        status=200 if healthy else 503,
    )
