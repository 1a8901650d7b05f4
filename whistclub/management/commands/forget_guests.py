from django.core.management.base import BaseCommand

from whistclub.accounts import leaving
from whistclub.accounts.guests import forgotten_guests


def forget_guests(now=None) -> int:
    """Delete the guests who never signed up and were not seen for ``GUEST_DAYS``, each as any
    account is deleted (their tables close, their seats show a former player).  How many."""
    count = 0
    for user in forgotten_guests(now):
        leaving.delete_account(user)
        count += 1
    return count


class Command(BaseCommand):
    help = ("Delete the guest accounts that never signed up and were not seen for GUEST_DAYS "
            "(run it daily, e.g. from cron).")

    def handle(self, *args, **options):
        count = forget_guests()
        self.stdout.write(f"{count} guest account(s) forgotten.")
