"""Start every event whose start time has come (run it every minute from cron or a timer):
round 1 is formed with those registered, computer players in the seats left.  An event with
nobody registered waits."""

from django.core.management.base import BaseCommand

from events import running


class Command(BaseCommand):
    help = "Start the events whose start time has come."

    def handle(self, *args, **options):
        started = running.start_due()
        self.stdout.write(f"{len(started)} event(s) started")
