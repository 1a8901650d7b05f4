from django.contrib import admin

from games import tables
from games.models import Hand, Seat, Table


def has_finished_hands(table) -> bool:
    return table is not None and table.pk is not None and table.hands.exists()


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "user", "computer_level", "former_player", "away_since")
    raw_id_fields = ("user",)

    # Who holds a seat is whose result each finished hand of the table is (the ratings read
    # it): once a hand is finished, the seats are only seen here.
    def get_readonly_fields(self, request, obj=None):
        if has_finished_hands(obj):
            return ("position", "user", "computer_level")
        return super().get_readonly_fields(request, obj)

    def has_add_permission(self, request, obj=None):
        return not has_finished_hands(obj) and super().has_add_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return not has_finished_hands(obj) and super().has_delete_permission(request, obj)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("pk", "game", "status", "is_private", "created_by", "created_at", "version")
    list_filter = ("game", "status", "is_private")
    search_fields = ("created_by__username",)
    # The live state is changed only through games.tables (one transaction per action).
    readonly_fields = ("version", "current", "summary", "last_action", "invite_token",
                       "move_deadline")
    inlines = [SeatInline]

    def get_readonly_fields(self, request, obj=None):
        fields = super().get_readonly_fields(request, obj)
        if has_finished_hands(obj):
            # The game and rules its finished hands were played and scored under.
            return (*fields, "game", "rules")
        return fields

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        if change:
            # Every change to a table is a new version (games.snapshots caches versions).
            tables.changed_in_admin(form.instance.pk)


class SeenOnly:
    """Staff see these records and change none of them here (results: the audited pages are
    the way to correct them)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Hand)
class HandAdmin(SeenOnly, admin.ModelAdmin):
    # A finished hand is a result (the ratings read it): seen here, never changed or deleted.
    list_display = ("table", "number", "finished_at")
