from django.contrib import admin
from django.urls import include, path

from games.views import table_pages as games_pages
from whistclub import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("i18n/setlang/", views.switch_language, name="set_language"),
    path("tables/", include("games.urls")),
    path("games/<str:game>/how-to-play/", games_pages.how_to_play, name="how_to_play"),
    path("games/<str:game>/computer-players/", games_pages.computer_players,
         name="computer_players"),
    path("accounts/", include("whistclub.accounts.urls")),
    path("clubs/<slug:slug>/events/", include("club_events.urls")),
    path("clubs/", include("leagues.urls")),
    path("events/", include("events.urls")),
    path("ratings/", include("ratings.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
]
