"""A display name is the player's own text, and it is written into every fragment the table and
the replay send: each seat's table and a spectator's, the last hand's result, the plates of a
waiting table and its forms, the replay's seats with their hands face up.  Whatever a name holds
(markup, quotes that would close an attribute, entities, a right-to-left override, braces and
percent signs that a template or a sentence could take for its own), the page must read it as
written and gain no element and no attribute from it."""

from __future__ import annotations

import dataclasses
import random
import re
from datetime import timedelta
from html.parser import HTMLParser
from unittest import mock

from django.template import Context, Template
from django.utils import timezone, translation
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games import registry
from games.html.table import table_fragment_html
from games.presentation import for_template
from games.rules import game_module
from games.snapshots import SeatFacts, TableSnapshot, finished_hand_view

GAMES = [each.id for each in registry.all_games()]
# Where each person's name goes: one placeholder per seat, which no sentence or word of the
# page holds, then the same page made again with the hostile names in their place.
PLACEHOLDER = "zqxname{}z"
PLACEHOLDERS = re.compile(r"zqxname(\d)z", re.I)

HOSTILE = st.one_of(
    st.sampled_from([
        "<script>alert(1)</script>", '"onmouseover="alert(1)', "' onfocus='alert(1)' x='",
        "&amp; &lt;b&gt; &#34;", "</span></div><div class=\"seat\">", "\u202eevil\u202c",
        "{}", "{0} {name}", "%(name)s %s", "<img src=x onerror=alert(1)>", "a" * 300,
        "x\" data-card=\"AS", "<!--", "]]>",
    ]),
    st.lists(st.sampled_from(["<", ">", "&", '"', "'", "=", "/", " ", "a", "é", "\u202e",
                              "{", "}", "%s", "&lt;", "\n"]), min_size=1, max_size=30)
    .map("".join),
    st.text(min_size=1, max_size=80),
)


class Structure(HTMLParser):
    """A page as its elements and attributes, in order, and everything a reader gets from it
    (its text and its attributes' values), as the browser's parser reads them."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple] = []
        self.read: list[str] = []
        self.attributes: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, tuple(name for name, _value in attrs)))
        self.read += [value or "" for _name, value in attrs]
        self.attributes += [(name, value or "") for name, value in attrs]

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        self.tags.append(("/" + tag,))

    def handle_data(self, data):
        self.read.append(data)

    def handle_comment(self, data):
        self.tags.append(("<!--",))

    def unknown_decl(self, data):
        self.tags.append(("<!",))


def structure(page: str) -> Structure:
    parsed = Structure()
    parsed.feed(page)
    parsed.close()
    return parsed


def named(text: str, names: list[str]) -> str:
    """``text`` with each placeholder replaced by its name (capitalised where the page starts
    a sentence with it)."""
    def name_for(match):
        name = names[int(match.group(1))]
        return name[:1].upper() + name[1:] if match.group(0)[0] == "Z" else name
    return PLACEHOLDERS.sub(name_for, text)


def assert_reads_as_written(make_page, names: list[str]) -> None:
    """The page made with the placeholders and with ``names``: the same elements and
    attributes, and the names read back exactly where the placeholders were."""
    plain = structure(make_page([PLACEHOLDER.format(n) for n in range(len(names))]))
    hostile = structure(make_page(names))
    assert hostile.tags == plain.tags, "a name added or removed an element or an attribute"
    assert "".join(hostile.read) == "".join(named("".join(plain.read), names))


# -- the tables: a few versions of a hand of each game, two people and two computers ----------

class Person:
    is_authenticated = True
    pk = 1


# The time the pages are made at, the same for both: a dropped-off person's countdown is in
# them.
NOW = timezone.now()


def seats_named(game: str, names: list[str], *, away: bool = False) -> tuple[SeatFacts, ...]:
    """People in the first seats (the last of them dropped off, with ``away``), computers in
    the others: a computer's name is the site's own."""
    dropped = NOW - timedelta(seconds=5)
    count = game_module(game).SEATS
    return tuple(SeatFacts(p, p + 1, f"user{p}", names[p], "",
                           dropped if away and p == len(names) - 1 else None)
                 if p < len(names) else SeatFacts(p, None, "", "", "normal", None)
                 for p in range(count))


def situations(game: str) -> list[TableSnapshot]:
    """Versions of the second hand of a game (so the first one's result is beside it): its
    first call, a card or two into the play, a finished trick, its last card."""
    module = game_module(game)
    rules = module.Rules.from_overrides({})
    rng = random.Random(5)
    last_hand, versions = None, []
    for number in (1, 2):
        dealt = module.deal(rules, number - 1, rng)
        state = module.new_hand(rules, number - 1, dealt.hands, dealt.kitty)
        hand = [state]
        while not state.complete:
            state = state.copy()
            state.apply(state.random_action(rng))
            hand.append(state)
        if number == 1:
            last_hand = finished_hand_view(number, state)
        else:
            versions = hand
    picked = [versions[0], versions[len(versions) // 2], versions[len(versions) // 2 + 1],
              versions[-2], versions[-1]]
    return [TableSnapshot(table_id=1, game=game, version=v, status="playing", created_by=1,
                          grace_seconds=60, trick_pause_ms=1500, house_rules={}, summary={},
                          seats=(), hands_played=1, deals_played=1, last_hand=last_hand,
                          record=None, state=state)
            for v, state in enumerate(picked, 1)]


SITUATIONS = [(game, snapshot) for game in GAMES for snapshot in situations(game)]
SLOW_SETTINGS = settings(suppress_health_check=[HealthCheck.too_slow])


def pages_of_a_table(snapshot: TableSnapshot, language: str, away: bool):
    """Every fragment a socket sends at one version of the table: each seat's and a
    spectator's, with the last hand's result and the live region's words."""
    def make_page(names):
        table = dataclasses.replace(snapshot, seats=seats_named(snapshot.game, names,
                                                                 away=away))
        pages = []
        with translation.override(language), mock.patch.object(timezone, "now", lambda: NOW):
            for seat in [*range(len(table.seats)), None]:
                view = table.view(seat)
                pages.append(table_fragment_html(view, for_template(view), user=Person(),
                                                 csrf_token="t" * 32, oob=True))
        return "\n".join(pages)
    return make_page


@SLOW_SETTINGS
@given(first=HOSTILE, second=HOSTILE, situation=st.sampled_from(SITUATIONS),
       language=st.sampled_from(["en", "fr"]), away=st.booleans())
def test_a_hostile_name_reads_as_written_on_every_seat_of_the_table(first, second, situation,
                                                                      language, away):
    assume(not PLACEHOLDERS.search(first + second))
    _game, snapshot = situation
    assert_reads_as_written(pages_of_a_table(snapshot, language, away), [first, second])


@SLOW_SETTINGS
@given(first=HOSTILE, second=HOSTILE, game=st.sampled_from(GAMES),
       status=st.sampled_from(["waiting", "finished"]))
def test_a_hostile_name_reads_as_written_at_a_waiting_or_finished_table(first, second, game,
                                                                        status):
    """Between hands: the plates (with the forms of the free seats while the table waits),
    the table's forms, and the last hand's result once it is over."""
    assume(not PLACEHOLDERS.search(first + second))
    _game, played = next(s for s in SITUATIONS if s[0] == game)

    def make_page(names):
        seats = list(seats_named(game, names))
        if status == "waiting":
            seats[-1] = SeatFacts(len(seats) - 1, None, "", "", "", None)  # a free seat
        table = dataclasses.replace(played, status=status, state=None, seats=tuple(seats),
                                    last_hand=played.last_hand if status == "finished"
                                    else None)
        return "\n".join(table_fragment_html(table.view(seat), for_template(table.view(seat)),
                                             user=Person(), csrf_token="t" * 32, oob=True)
                         for seat in (0, None))
    assert_reads_as_written(make_page, [first, second])


REPLAY_SEATS = Template(
    "{% load cards plates %}{% for s in seats %}"
    "{% seat_plate s ui view True open_cards=s.cards %}{% endfor %}"
    "<ol>{% trick_spots ui.trick.current %}</ol>"
    "{% if ui.trick.finished %}<ol>{% trick_spots ui.trick.finished.spots %}</ol>{% endif %}"
    "{% if ui.auction %}{% auction_grid ui.auction %}{% endif %}")


@SLOW_SETTINGS
@given(first=HOSTILE, second=HOSTILE, situation=st.sampled_from(SITUATIONS))
def test_a_hostile_name_reads_as_written_on_the_replays_seats(first, second, situation):
    """The replay's template: every seat's plate with its hand face up, the trick's spots and
    the auction grid, through the template tags."""
    assume(not PLACEHOLDERS.search(first + second))
    _game, snapshot = situation

    def make_page(names):
        table = dataclasses.replace(snapshot, seats=seats_named(snapshot.game, names))
        view = table.view(None) | {"players": table.players(), "status": "finished"}
        ui = for_template(view)
        seats = [s | {"cards": ["AS", "KH"], "acted": s["seat"] == 0} for s in
                 ui["seats_in_order"]]
        return REPLAY_SEATS.render(Context({"seats": seats, "ui": ui, "view": view}))
    assert_reads_as_written(make_page, [first, second])


# -- the catalogues' words: a translation is text too ------------------------------------------

# What a translation could hold that would end an attribute or open an element if the page
# wrote it as it is.
BREAKING = '"><i x="'


def breaking(translate):
    return lambda *args: BREAKING + translate(*args)


def test_a_translation_with_quotes_and_markup_breaks_no_attribute_and_adds_no_element():
    """Every word from the catalogues (an aria-label, a title, a bid's name, a sentence) is
    escaped as it goes in: a translation with a quote in it stays inside its attribute."""
    trans = translation._trans
    # A language of its own, so that no words remembered for English are used or kept.
    with mock.patch.object(trans, "gettext", breaking(trans.gettext)), \
            mock.patch.object(trans, "ngettext", breaking(trans.ngettext)), \
            mock.patch.object(trans, "pgettext", breaking(trans.pgettext)):
        page = structure("\n".join(pages_of_a_table(snapshot, "en-x-quoted", away=False)(
            ["Ana", "Bob"]) for _game, snapshot in SITUATIONS))
    quoted = {name for name, value in page.attributes if BREAKING in value}
    assert {"aria-label", "title"} <= quoted  # the words in attributes were the quoted ones
    assert not [tag for tag in page.tags if tag[0] == "i"]
    assert "x" not in {name for name, _value in page.attributes}
