from django.urls import path

from ratings import views

app_name = "ratings"
urlpatterns = [
    path("", views.online_ratings, name="online"),
    path("clubs/<slug:slug>/", views.club_ratings, name="club"),
    path("clubs/<slug:slug>/members/<int:member_id>/", views.member_ratings, name="member"),
    path("clubs/<slug:slug>/members/<int:member_id>/<str:game>.svg", views.member_rating_chart,
         name="member_chart"),
    path("clubs/<slug:slug>/tables/<int:table_id>/", views.table_expectation, name="table"),
]
