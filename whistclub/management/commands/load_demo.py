"""Demo accounts (and, as apps grow, demo data) for a newcomer's first look.

Idempotent: running it again changes nothing that exists, so ``make run`` can call it every time.
"""

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction

from whistclub.accounts.models import Profile

DEMO_PASSWORD = "whist-demo"
DEMO_PLAYERS = [
    # username, display name, preferred language
    ("demo", "Demo Organiser", ""),
    ("alice", "Alice", "en"),
    ("bruno", "Bruno", "fr"),
    ("carla", "Carla", "pt"),
    ("daan", "Daan", "nl"),
]


class Command(BaseCommand):
    help = "Create the demo accounts if they are missing and print their logins."

    @transaction.atomic
    def handle(self, *args, **options):
        User = get_user_model()
        created = 0
        for username, display_name, language in DEMO_PLAYERS:
            user, is_new = User.objects.get_or_create(
                username=username, defaults={"email": f"{username}@example.org"}
            )
            if is_new:
                user.set_password(DEMO_PASSWORD)
                if username == "demo":
                    user.is_staff = user.is_superuser = True
                user.save()
                created += 1
            Profile.objects.get_or_create(
                user=user, defaults={"display_name": display_name, "language": language}
            )
        self.stdout.write(f"Demo data: {created} account(s) created, "
                          f"{len(DEMO_PLAYERS) - created} already there.")
        self.stdout.write(self.style.SUCCESS(
            f"Demo login: demo / {DEMO_PASSWORD}  (also alice, bruno, carla, daan; same password; "
            "demo is an administrator at /admin/)"
        ))
        call_command("load_leagues_demo")
