from django.contrib import admin

from whistclub.accounts.models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "display_name", "language")
    search_fields = ("user__username", "display_name", "user__email")
