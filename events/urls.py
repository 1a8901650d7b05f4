from django.urls import path

from events import views

urlpatterns = [
    path("", views.event_list, name="events"),
    path("new/<str:game>/", views.event_new, name="event_new"),
    path("<int:event_id>/", views.event_page, name="event"),
    path("<int:event_id>/live/", views.event_live, name="event_live"),
    path("<int:event_id>/register/", views.register, name="event_register"),
    path("<int:event_id>/withdraw/", views.withdraw, name="event_withdraw"),
    path("<int:event_id>/start/", views.start, name="event_start"),
    path("<int:event_id>/pause/", views.pause, name="event_pause"),
    path("<int:event_id>/come-back/", views.come_back, name="event_come_back"),
    path("<int:event_id>/leave/", views.leave, name="event_leave"),
    path("<int:event_id>/standings/", views.standings, name="event_standings"),
    path("<int:event_id>/deals/<int:number>/", views.traveller, name="event_traveller"),
    path("reminders/stop/<str:token>/", views.reminders_stop, name="event_reminders_stop"),
]
