"""The cost of a seat's HTML fragment (the browser's path) against its JSON state (the floor).

    .venv/bin/python bench/fragment.py [--hands 3] [--games bid_whist,solo_whist,belgian_whist]

Plays ``--hands`` random hands of each game with the engines, no database, and for every
version of every hand renders what a socket sends each of the four seats in English and in
French: the JSON state (``snapshot.view`` + ``json.dumps``, the floor) and the fragment
(``snapshot.view`` + ``games.presentation.for_template`` + ``table_fragment_html``, as
``games.consumers.TableConsumer.send_state`` sends it to a socket that already holds the
last hand's result: every message but the first of a hand).  Runs on one core.  Prints, per game, the milliseconds per
seat of each and their ratio, then one line per game:
``fragment <game>: html_ms=X json_ms=Y ratio=Z bytes=B``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "whistclub.settings")
os.environ.pop("DATABASE_URL", None)  # no database is read: the embedded default is enough

import django  # noqa: E402

django.setup()

from django.utils import translation  # noqa: E402

from games.html.table import table_fragment_html  # noqa: E402
from games.presentation import for_template  # noqa: E402
from games.rules import game_module  # noqa: E402
from games.snapshots import SeatFacts, TableSnapshot, finished_hand_view  # noqa: E402

LANGUAGES = ("en", "fr")


class Player:
    """What the template asks of the person at the socket."""

    is_authenticated = True
    pk = 1


def snapshots_of(game: str, hands: int, rng: random.Random) -> list[TableSnapshot]:
    """Every version of ``hands`` random hands at a table of two people and two computers."""
    module = game_module(game)
    rules = module.Rules.from_overrides({})
    seats = tuple(SeatFacts(p, p + 1 if p < 2 else None, f"player{p}", "", "" if p < 2 else
                            "normal", None) for p in range(module.SEATS))
    out: list[TableSnapshot] = []
    last_hand = None
    version = 0
    for number in range(1, hands + 1):
        dealer = (number - 1) % module.SEATS
        dealt = module.deal(rules, dealer, rng)
        state = module.new_hand(rules, dealer, dealt.hands, dealt.kitty)
        while True:
            version += 1
            out.append(TableSnapshot(
                table_id=1, game=game, version=version, status="playing", created_by=1,
                grace_seconds=60, trick_pause_ms=1500, house_rules={}, summary={},
                seats=seats, hands_played=number - 1, deals_played=number - 1, last_hand=last_hand, record=None,
                state=state))
            if state.complete:
                break
            state = state.copy()
            state.apply(state.random_action(rng))
        last_hand = finished_hand_view(number, state)
    return out


def json_state(snapshot: TableSnapshot, seat: int) -> str:
    view = snapshot.view(seat)
    return json.dumps({"type": "state", "version": view["version"], "state": view})


def html_fragment(snapshot: TableSnapshot, seat: int) -> str:
    view = snapshot.view(seat)
    return table_fragment_html(view, for_template(view, with_result=False), user=Player(),
                               csrf_token="x" * 32, oob=True, result_unchanged=True)


def timed(snapshots: list[TableSnapshot], make) -> tuple[float, int]:
    """Milliseconds per seat and the mean size in bytes, every version × seat × language."""
    count = size = 0
    gc.collect()
    started = time.perf_counter()
    for language in LANGUAGES:
        with translation.override(language):
            for snapshot in snapshots:
                for seat in range(len(snapshot.seats)):
                    size += len(make(snapshot, seat).encode())
                    count += 1
    return (time.perf_counter() - started) * 1000 / count, size // count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--games", default="bid_whist,solo_whist,belgian_whist")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    lines = []
    for game in options.games.split(","):
        snapshots = snapshots_of(game, options.hands, random.Random(options.seed))
        timed(snapshots[:20], html_fragment)  # templates compiled, catalogues loaded
        json_ms, json_bytes = timed(snapshots, json_state)
        html_ms, html_bytes = timed(snapshots, html_fragment)
        print(f"{game}: {len(snapshots)} versions × 4 seats × {len(LANGUAGES)} languages; "
              f"json {json_ms:.3f} ms/seat {json_bytes} B, html {html_ms:.3f} ms/seat "
              f"{html_bytes} B", flush=True)
        lines.append(f"fragment {game}: html_ms={html_ms:.3f} json_ms={json_ms:.3f} "
                     f"ratio={html_ms / json_ms:.2f} bytes={html_bytes}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
