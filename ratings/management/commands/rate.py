"""Rebuild ratings from the stored results: ``manage.py rate --rebuild [--club SLUG]
[--game G]``."""

import time

from django.core.management.base import BaseCommand, CommandError

from games import registry
from leagues.models import Club
from ratings.store import refresh, scopes_and_games


class Command(BaseCommand):
    help = "Rate every stored result again (all scopes and games, or one club's, one game's)."

    def add_arguments(self, parser):
        parser.add_argument("--rebuild", action="store_true",
                            help="Rate every result again from the start.")
        parser.add_argument("--club", help="Only this club's results (its slug).")
        parser.add_argument("--game", choices=[g.id for g in registry.all_games()],
                            help="Only this game.")

    def handle(self, *args, rebuild=False, club=None, game=None, **options):
        if not rebuild:
            raise CommandError("Say --rebuild: ratings are otherwise kept up to date as "
                               "results change.")
        chosen = None
        if club:
            chosen = Club.objects.filter(slug=club).first()
            if chosen is None:
                raise CommandError(f"No club {club!r}.")
        for scope, each in scopes_and_games(chosen, game):
            start = time.perf_counter()
            count = refresh(scope, each)
            self.stdout.write(f"{scope} {each}: {count} results rated in "
                              f"{(time.perf_counter() - start) * 1000:.0f} ms")
