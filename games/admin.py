from django.contrib import admin

from games import tables
from games.models import Hand, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "user", "bot_level", "former_player", "away_since")
    raw_id_fields = ("user",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("pk", "game", "status", "is_private", "created_by", "created_at", "version")
    list_filter = ("game", "status", "is_private")
    search_fields = ("created_by__username",)
    # The live state is changed only through games.tables (one transaction per action).
    readonly_fields = ("version", "current", "summary", "last_action", "invite_token")
    inlines = [SeatInline]

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        if change:
            # Every change to a table is a new version (games.snapshots caches versions).
            tables.changed_in_admin(form.instance.pk)


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ("table", "number", "finished_at")
    readonly_fields = ("table", "number", "record", "result", "finished_at")
