from django.contrib import admin

from leagues.models import (
    Attendance,
    Club,
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


class MemberInline(admin.TabularInline):
    model = Member
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "is_public", "created_at")
    search_fields = ("name", "slug")
    inlines = [MemberInline]


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
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

    def save_model(self, request, obj, form, change):
        obj.full_clean()  # the house rules go through the engine's validation
        super().save_model(request, obj, form, change)


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "league", "draw")


@admin.register(Partnership)
class PartnershipAdmin(admin.ModelAdmin):
    list_display = ("__str__", "season")


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin):
    list_display = ("date", "start_time", "venue", "season")
    date_hierarchy = "date"


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0


@admin.register(EveningTable)
class EveningTableAdmin(admin.ModelAdmin):
    # Results change only through the score sheet pages, which score and audit every change.
    list_display = ("__str__", "entry", "winner")
    readonly_fields = ("entry", "score_0", "score_1", "bostons_0", "bostons_1", "winner")
    inlines = [TableSeatInline]


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ("table", "number", "contract", "declarer", "made")
    readonly_fields = ("facts", "points", "contract", "declarer", "made", "entered_by")


@admin.register(ResultChange)
class ResultChangeAdmin(admin.ModelAdmin):
    list_display = ("table", "action", "deal_number", "changed_by", "changed_at")
    readonly_fields = ("table", "action", "deal_number", "changed_by", "before", "after")


admin.site.register(Attendance)


@admin.register(OnlineFixture)
class OnlineFixtureAdmin(admin.ModelAdmin):
    list_display = ("pk", "table", "game_table", "created_by")
    raw_id_fields = ("table", "game_table")


@admin.register(RecordedHand)
class RecordedHandAdmin(admin.ModelAdmin):
    list_display = ("pk", "fixture", "hand", "deals", "error")
    raw_id_fields = ("fixture", "hand")
