"""Under the club's address: ``/clubs/<club>/events/``."""

from django.urls import path

from club_events import views

app_name = "club_events"

urlpatterns = [
    path("", views.club_events, name="list"),
    path("new/<str:game>/", views.club_event_new, name="new"),
    path("evening/<int:evening_id>/new/", views.club_event_for_evening,
         name="new_for_evening"),
    path("evening/<int:evening_id>/at-the-tables/", views.evening_at_tables,
         name="evening_at_tables"),
]
