"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "whistclub.settings")
# Django must be set up before anything imports models (the WebSocket routes do).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games.recovery import start_background_work  # noqa: E402
from whistclub.gc_tuning import tune_garbage_collector  # noqa: E402
from whistclub.origins import SameOriginWebSockets  # noqa: E402
from whistclub.request_limits import (  # noqa: E402
    CappedRequestBodies,
    cap_request_bodies_in_daphne,
)
from whistclub.routing import websocket_urlpatterns  # noqa: E402

# Everything loaded so far lives as long as the process: keep the collector off it, and collect
# less often (docs/performance.md: full collections were the live tables' latency tail).
tune_garbage_collector()
# No request body past DATA_UPLOAD_MAX_MEMORY_SIZE is kept, whatever its type, with or without
# nginx in front (whistclub/request_limits.py): daphne reads a body before the application runs,
# so its own requests hold it to the cap, and the middleware holds any other ASGI server to it.
cap_request_bodies_in_daphne()

# A process that starts catches up with what a killed one left (computer players' moves,
# takeovers, follow-ups), then keeps a worker for the follow-ups (games/recovery.py).
start_background_work()

application = ProtocolTypeRouter(
    {
        "http": CappedRequestBodies(django_asgi_app),
        # A WebSocket carries the user's cookies cross-site: only the site's own pages (same
        # scheme, host and port, or CSRF_TRUSTED_ORIGINS) may open one (whistclub/origins.py).
        "websocket": SameOriginWebSockets(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
