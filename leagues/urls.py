"""The leagues' addresses, a list for each kind of page under the club's address
(``/clubs/<club>/``): the club itself, a member, a league, a season, an evening, a table of an
evening, a pair.  Each page's name is what templates and views reverse."""

from django.urls import include, path

from leagues import views

app_name = "leagues"

club = [
    path("", views.club_detail, name="club"),
    path("edit/", views.club_edit, name="club_edit"),
    path("calendar.ics", views.calendar, name="calendar"),
    path("calendar/<str:token>.ics", views.member_calendar, name="member_calendar"),
    path("changes/", views.club_changes, name="club_changes"),
    path("members/", views.member_list, name="members"),
    path("members/add/", views.member_add, name="member_add"),
    path("members/bulk/", views.members_bulk, name="members_bulk"),
    path("members/ask/", views.addresses_ask, name="addresses_ask"),
    path("invites/", views.invite_create, name="invite_create"),
    path("invites/<int:invite_id>/renew/", views.invite_renew, name="invite_renew"),
    path("invites/<int:invite_id>/revoke/", views.invite_revoke, name="invite_revoke"),
    path("leagues/new/", views.league_create, name="league_create"),
]

member = [
    path("", views.member_detail, name="member"),
    path("ask/", views.address_ask, name="address_ask"),
    path("manage/", views.member_manage, name="member_manage"),
    path("calendar/", views.calendar_address_mine, name="calendar_address_mine"),
    path("reminders/", views.reminders_mine, name="reminders_mine"),
    path("merge/", views.member_merge, name="member_merge"),
    path("make-member/", views.guest_make_member, name="guest_make_member"),
    path("charts/<int:league_id>.svg", views.member_chart, name="member_chart"),
]

league = [
    path("", views.league_detail, name="league"),
    path("edit/", views.league_edit, name="league_edit"),
    path("rules/", views.league_rules, name="league_rules"),
    path("seasons/new/", views.season_create, name="season_create"),
]

season = [
    path("", views.season_detail, name="season"),
    path("close/", views.season_close, name="season_close"),
    path("chart.svg", views.season_chart, name="season_chart"),
    path("standings.csv", views.standings_csv, name="standings_csv"),
    path("results.csv", views.results_csv, name="results_csv"),
    path("pairs/new/", views.partnership_create, name="pair_create"),
    path("head-to-head/", views.head_to_head, name="head_to_head"),
    path("evenings/new/", views.evening_create, name="evening_create"),
    path("evenings/series/", views.evening_series, name="evening_series"),
]

pair = [
    path("", views.pair_detail, name="pair"),
    path("edit/", views.partnership_edit, name="pair_edit"),
    path("chart.svg", views.pair_chart, name="pair_chart"),
]

evening = [
    path("", views.evening_detail, name="evening"),
    path("edit/", views.evening_edit, name="evening_edit"),
    path("delete/", views.evening_delete, name="evening_delete"),
    path("cancel/", views.evening_cancel, name="evening_cancel"),
    path("uncancel/", views.evening_uncancel, name="evening_uncancel"),
    path("guests/", views.guest_add, name="guest_add"),
    path("attendance/", views.attendance, name="attendance"),
    path("attendance/sheet/", views.attendance_sheet, name="attendance_sheet"),
    path("attendance/<int:member_id>/", views.attendance_row, name="attendance_row"),
    path("email/", views.evening_email, name="evening_email"),
    path("results/send/", views.evening_results_send, name="evening_results_send"),
    path("tables/new/", views.table_create, name="table_create"),
    path("draw/", views.evening_draw, name="draw"),
    path("board/", views.board, name="board"),
    path("board/<str:token>/", views.board, name="board_secret"),
    path("board-link/", views.board_link, name="board_link"),
    path("sheet/", views.score_sheet, name="score_sheet"),
    path("cards/", views.table_cards, name="table_cards"),
]

table = [
    path("", views.table_detail, name="table"),
    path("edit/", views.table_edit, name="table_edit"),
    path("delete/", views.table_delete, name="table_delete"),
    path("deals/", views.deal_add, name="deal_add"),
    path("deals/<int:number>/", views.deal_edit, name="deal_edit"),
    path("deals/<int:number>/delete/", views.deal_delete, name="deal_delete"),
    path("restore/<int:change_id>/", views.deal_restore, name="deal_restore"),
    path("totals/", views.totals, name="totals"),
    path("online/", views.online_start, name="online_start"),
    path("confirm/", views.table_confirm, name="confirm"),
    path("changes/", views.table_changes, name="changes"),
    path("substitutes/", views.substitute_add, name="substitute_add"),
    path("substitutes/<int:substitute_id>/remove/", views.substitute_remove,
         name="substitute_remove"),
]

urlpatterns = [
    path("", views.club_list, name="clubs"),
    path("new/", views.club_create, name="club_create"),
    path("join/<str:token>/", views.join, name="join"),
    path("reminders/stop/<str:token>/", views.reminders_stop, name="reminders_stop"),
    path("reminders/confirm/<str:token>/", views.address_confirm, name="address_confirm"),
    path("<slug:slug>/", include(club)),
    path("<slug:slug>/members/<int:member_id>/", include(member)),
    path("<slug:slug>/leagues/<int:league_id>/", include(league)),
    path("<slug:slug>/seasons/<int:season_id>/", include(season)),
    path("<slug:slug>/pairs/<int:pair_id>/", include(pair)),
    path("<slug:slug>/evenings/<int:evening_id>/", include(evening)),
    path("<slug:slug>/tables/<int:table_id>/", include(table)),
]
