from django.urls import path

from games import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/<str:game>/", views.new_table, name="new_table"),
    path("play/<str:game>/", views.play_now, name="play_now"),
    path("<int:table_id>/", views.table_page, name="table"),
    path("<int:table_id>/state/", views.table_state, name="table_state"),
    path("<int:table_id>/invite/renew/", views.renew_invite, name="table_invite_renew"),
    path("<int:table_id>/invite/<str:token>/", views.table_invite, name="table_invite"),
    path("<int:table_id>/sit/<int:position>/", views.sit, name="table_sit"),
    path("<int:table_id>/computer/<int:position>/", views.add_computer_player, name="table_add_computer_player"),
    path("<int:table_id>/fill/", views.fill_seats, name="table_fill_seats"),
    path("<int:table_id>/rematch/", views.rematch, name="table_rematch"),
    path("<int:table_id>/leave/", views.leave, name="table_leave"),
    path("<int:table_id>/act/", views.act, name="table_act"),
    path("<int:table_id>/close/", views.close, name="table_close"),
    path("<int:table_id>/hands/", views.hand_list, name="hand_list"),
    path("<int:table_id>/hands/<int:number>/", views.hand_replay, name="hand_replay"),
    path("<int:table_id>/hands/<int:number>.json", views.hand_download, name="hand_download"),
    path("<int:table_id>/hands/<int:number>/review/", views.hand_review, name="hand_review"),
]
