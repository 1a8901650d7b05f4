from django.urls import path

from games.views import hand_pages, table_pages

urlpatterns = [
    path("", table_pages.lobby, name="lobby"),
    path("new/<str:game>/", table_pages.new_table, name="new_table"),
    path("play/<str:game>/", table_pages.play_now, name="play_now"),
    path("<int:table_id>/", table_pages.table_page, name="table"),
    path("<int:table_id>/state/", table_pages.table_state, name="table_state"),
    path("<int:table_id>/invite/renew/", table_pages.renew_invite, name="table_invite_renew"),
    path("<int:table_id>/invite/<str:token>/", table_pages.table_invite, name="table_invite"),
    path("<int:table_id>/sit/<int:position>/", table_pages.sit, name="table_sit"),
    path("<int:table_id>/computer/<int:position>/", table_pages.add_computer_player, name="table_add_computer_player"),
    path("<int:table_id>/fill/", table_pages.fill_seats, name="table_fill_seats"),
    path("<int:table_id>/rematch/", table_pages.rematch, name="table_rematch"),
    path("<int:table_id>/leave/", table_pages.leave, name="table_leave"),
    path("<int:table_id>/act/", table_pages.act, name="table_act"),
    path("<int:table_id>/close/", table_pages.close, name="table_close"),
    path("<int:table_id>/hands/", hand_pages.hand_list, name="hand_list"),
    path("<int:table_id>/hands/<int:number>/", hand_pages.hand_replay, name="hand_replay"),
    path("<int:table_id>/hands/<int:number>.json", hand_pages.hand_download, name="hand_download"),
    path("<int:table_id>/hands/<int:number>/review/", hand_pages.hand_review, name="hand_review"),
]
