"""``manage.py deal --game G --seed N``: a new complete hand record played by random legal moves."""

import json

from django.core.management.base import BaseCommand, CommandError

from games.rules import GAME_MODULES
from games.rules.errors import WhistError
from games.rules.records import parse_json, random_record


class Command(BaseCommand):
    help = "Write a random complete whistclub-hand/1 record (for tests and benchmarks)."

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True, choices=sorted(GAME_MODULES))
        parser.add_argument("--seed", required=True, type=int,
                            help="the same seed gives the same record")
        parser.add_argument("--dealer", type=int, default=0,
                            help="the dealer's seat, from 0 (the game's engine checks it)")
        parser.add_argument("--rules", default="{}",
                            help='house-rule overrides as JSON, e.g. \'{"min_bid": 4}\'')
        parser.add_argument("--output", "-o", help="write to this file instead of stdout")

    def handle(self, *args, game, seed, dealer, rules, output, **options):
        try:
            record = random_record(game, seed, rules=parse_json(rules), dealer=dealer)
        except WhistError as exc:
            raise CommandError(str(exc)) from None
        text = json.dumps(record, indent=1)
        if output:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(text + "\n")
        else:
            self.stdout.write(text)
