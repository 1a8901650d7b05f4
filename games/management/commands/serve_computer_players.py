"""manage.py serve_computer_players: the computer players' pool as a service (games/computer_server.py)."""

import signal

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from games import computer_runner, computer_server


class Command(BaseCommand):
    help = ("Serve computer players' decisions to the site's processes (COMPUTER_SERVICE_URL there) "
            "from this machine's worker pool (COMPUTER_WORKERS, COMPUTER_TIME_LIMIT_SECONDS).")

    def add_arguments(self, parser):
        parser.add_argument("--bind", default="127.0.0.1",
                            help="the address to listen on (default 127.0.0.1)")
        parser.add_argument("--port", type=int, default=8100)

    def handle(self, *args, bind, port, **options):
        if len(settings.COMPUTER_SERVICE_TOKEN) < 16:
            raise CommandError(_("Set COMPUTER_SERVICE_TOKEN (at least 16 characters): the site's "
                                 "processes send it with every decision they ask for."))
        if settings.COMPUTER_WORKERS < 1:
            raise CommandError(_("Set COMPUTER_WORKERS to 1 or more: decisions are made in worker "
                                 "processes, each cut off after COMPUTER_TIME_LIMIT_SECONDS."))
        server = computer_server.serve(bind, port)
        # SIGTERM (systemd's stop) ends the loop like ^C, so the worker pool is stopped too.
        signal.signal(signal.SIGTERM, _stop)
        self.stdout.write(f"computer players on http://{bind}:{server.server_port}/ "
                          f"({settings.COMPUTER_WORKERS} workers, "
                          f"{settings.COMPUTER_TIME_LIMIT_SECONDS:g} s a decision)", ending="\n")
        self.stdout.flush()
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
            computer_runner.shutdown()


def _stop(signum, frame):
    raise KeyboardInterrupt
