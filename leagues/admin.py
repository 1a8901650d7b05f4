"""The admin shows staff everything; it changes nothing that the club's pages record.

Results (tables, their seats and totals, deals, the history of results and of the club) and
the club's people are read-only here: the score sheet pages and the member pages are the way
to change them, each change checked, scored and kept in a history (``leagues/edits.py``,
``EveningTable``'s entry methods).  A club's and a league's settings may be changed here, and
each save goes through the same audited functions as the pages, so it is in the club's
history under the staff member's name; so does an evening's change (a date moved moves its
results among the others: ``leagues.result_events``).  An evening, season or league with
tables cannot be deleted here: the tables are read-only."""

from django.contrib import admin

from games.admin import SeenOnly
from leagues import edits
from leagues.models import (
    Attendance,
    Club,
    ClubChange,
    ClubEmail,
    Deal,
    Evening,
    EveningTable,
    Invite,
    League,
    Member,
    OnlineFixture,
    Partnership,
    RecordedHand,
    ResultChange,
    Season,
    TableSeat,
)


class MemberInline(SeenOnly, admin.TabularInline):
    model = Member
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "is_public", "created_at")
    search_fields = ("name", "slug")
    inlines = [MemberInline]

    def save_model(self, request, obj, form, change):
        if not change:
            super().save_model(request, obj, form, change)
            ClubChange.record(obj, request.user, "club_create", None, {"name": obj.name})
            return
        edits.change_club(obj, {name: getattr(obj, name) for name in edits.CLUB_SETTINGS},
                          request.user)

    def get_deleted_objects(self, objs, request):
        # A club deleted whole takes its people and its history with it: nothing is left
        # for them to be the trace of.  (Its results protect its members: a club with
        # results cannot be deleted here at all.)
        deleted, counts, needed, protected = super().get_deleted_objects(objs, request)
        seen_only = {str(model._meta.verbose_name) for model in (Member, ClubChange)}
        return deleted, counts, needed - seen_only, protected


@admin.register(Member)
class MemberAdmin(SeenOnly, admin.ModelAdmin):
    # Added, renamed, given a role or an address on the club's pages, each in its history.
    list_display = ("name", "club", "role", "user")
    list_filter = ("role",)
    search_fields = ("name", "user__username", "club__name")
    raw_id_fields = ("user",)


@admin.register(ClubEmail)
class ClubEmailAdmin(admin.ModelAdmin):
    """What the site sent for each club, to whom and for whom: read only (a record)."""

    list_display = ("sent_at", "club", "kind", "address", "member", "sent_by")
    list_filter = ("kind",)
    search_fields = ("address", "club__name", "sent_by__username")
    date_hierarchy = "sent_at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Invite)
class InviteAdmin(admin.ModelAdmin):
    list_display = ("club", "member", "created_by", "created_at", "used_at")


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "game", "ranking")
    list_filter = ("game",)
    # Who partners whom is the league's settings page's: there a change once a season has
    # pairs of the other kind is refused in words (``edits.refuse_partners_change``).
    exclude = ("partners",)

    def get_readonly_fields(self, request, obj=None):
        # Another game would make every entered deal meaningless; another club, every seat.
        return ("club", "game") if obj is not None else ()

    def save_model(self, request, obj, form, change):
        obj.full_clean()  # the house rules go through the engine's validation
        if not change:
            super().save_model(request, obj, form, change)
            return
        edits.change_league(obj, {name: getattr(obj, name) for name in edits.LEAGUE_SETTINGS},
                            request.user)
        edits.change_house_rules(obj, obj.rules, request.user)


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "league", "draw", "closed_at")
    # Closed on its page (which keeps the options it closed with); never reopened here.
    readonly_fields = ("closed_at", "closed_options", "closed_rules")


@admin.register(Partnership)
class PartnershipAdmin(admin.ModelAdmin):
    list_display = ("__str__", "season")


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin):
    list_display = ("date", "start_time", "venue", "season")
    date_hierarchy = "date"

    def get_readonly_fields(self, request, obj=None):
        # Another season could be another club's, whose members hold none of its seats; a
        # closed season's evenings stay as they closed.
        if obj is None:
            return ()
        return (("season", "date", "start_time", "venue", "rounds", "deals_per_round")
                if obj.season.is_closed else ("season",))

    def save_model(self, request, obj, form, change):
        if not change:
            super().save_model(request, obj, form, change)
            return
        edits.edit_evening(obj, {name: getattr(obj, name)
                                 for name in ("date", "start_time", "venue", "rounds",
                                              "deals_per_round")}, request.user)


class TableSeatInline(SeenOnly, admin.TabularInline):
    model = TableSeat
    extra = 0


@admin.register(EveningTable)
class EveningTableAdmin(SeenOnly, admin.ModelAdmin):
    # Results change only through the score sheet pages, which score and audit every change.
    list_display = ("__str__", "entry", "winner")
    inlines = [TableSeatInline]


@admin.register(Deal)
class DealAdmin(SeenOnly, admin.ModelAdmin):
    list_display = ("table", "number", "contract", "declarer", "made")


@admin.register(ResultChange)
class ResultChangeAdmin(SeenOnly, admin.ModelAdmin):
    list_display = ("table", "action", "deal_number", "changed_by", "changed_at")


@admin.register(ClubChange)
class ClubChangeAdmin(SeenOnly, admin.ModelAdmin):
    list_display = ("club", "action", "changed_by", "changed_at")


admin.site.register(Attendance)


@admin.register(OnlineFixture)
class OnlineFixtureAdmin(admin.ModelAdmin):
    list_display = ("pk", "table", "game_table", "created_by")
    raw_id_fields = ("table", "game_table")


@admin.register(RecordedHand)
class RecordedHandAdmin(admin.ModelAdmin):
    list_display = ("pk", "fixture", "hand", "deals", "error")
    raw_id_fields = ("fixture", "hand")
