"""``manage.py replay FILE [FILE ...]``: replay hand records and match documents.

Prints one JSON line per file, in order, on stdout.  A file that cannot be replayed gives
``{"file": ..., "error": "..."}`` on stdout, the same reason on stderr, and exit status 2.
``-`` reads standard input.
"""

import json
import sys

from django.core.management.base import BaseCommand

from games.rules.errors import WhistError
from games.rules.records import parse_json, replay_document


class Command(BaseCommand):
    help = "Replay whistclub-hand/1 records or whistclub-match/1 documents and print the results."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE", help="a record file, or - for stdin")

    def handle(self, *args, files, **options):
        failed = False
        for name in files:
            line = {"file": name}
            try:
                text = self._read(name)
                line.update(replay_document(parse_json(text)))
            except (OSError, UnicodeDecodeError) as exc:
                failed = True
                line["error"] = f"cannot read the file: {exc.strerror or exc}"
            except WhistError as exc:
                failed = True
                line["error"] = str(exc)
            if "error" in line:
                self.stderr.write(f"{name}: {line['error']}")
            self.stdout.write(json.dumps(line, ensure_ascii=False))
        if failed:
            sys.exit(2)

    @staticmethod
    def _read(name: str) -> str:
        if name == "-":
            return sys.stdin.read()
        with open(name, encoding="utf-8") as handle:
            return handle.read()
