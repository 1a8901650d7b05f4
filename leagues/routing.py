from django.urls import path

from leagues import consumers

websocket_urlpatterns = [
    path("ws/boards/<int:evening_id>/", consumers.BoardConsumer.as_asgi()),
    path("ws/boards/<int:evening_id>/<str:token>/", consumers.BoardConsumer.as_asgi()),
]
