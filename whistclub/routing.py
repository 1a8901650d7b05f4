"""WebSocket routes of every app, gathered in one list for asgi.py."""

from events.routing import websocket_urlpatterns as events_routes
from games.routing import websocket_urlpatterns as games_routes
from leagues.routing import websocket_urlpatterns as leagues_routes

websocket_urlpatterns: list = [*games_routes, *leagues_routes, *events_routes]
