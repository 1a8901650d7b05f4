"""One look at what the serving processes' follow-up workers look at every few seconds
(``events.periodic``): for a site with none of them running, run it every minute (cron or a
timer).  Sends the e-mail an hour before each event to those
registered (``events.reminders``).  Starts every event whose start time has come:
round 1 is formed with those registered, computer players in the seats left (an event with
nobody registered waits).  And looks at the round clocks: a round whose time is up and whose
tables still play, when no serving process finished them (a restart with nobody connected),
has its deals finished by the computer players here, and the next round formed.  And seats
again the people waiting in an arena (after a restart, or past their longest wait), ending an
arena whose time is up."""

from django.core.management.base import BaseCommand

from events import periodic


class Command(BaseCommand):
    help = ("Send the e-mails an hour before events; start the events whose start time has "
            "come; finish the rounds whose time is up.")

    def handle(self, *args, **options):
        looked = periodic.look()
        self.stdout.write(f"{looked.reminded} reminder(s) sent, {len(looked.started)} event(s) "
                          f"started, {len(looked.finished)} late table(s) finished, "
                          f"{len(looked.opened)} arena table(s) opened")
