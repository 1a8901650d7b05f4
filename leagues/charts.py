"""The leagues' charts, drawn on the server as SVG by pygal (no JavaScript on the page).

Each chart is one league's, never two games mixed: a member's running balance by evening
(Solo, Belgian Whist), their score in each match against the opponents' (Bid Whist pairs,
Cutthroat), and a season's totals by evening (balances, or league points for a match league).
The pages show them as ``<img src>`` of an SVG address (:mod:`leagues.views`): an SVG shown as
an image runs no script, and its own ``<style>`` is allowed on that response only.
"""

from __future__ import annotations

import math
from collections import defaultdict
from decimal import Decimal

import pygal
from django.db.models import Q
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from pygal.style import Style

from leagues.models import EveningTable, League, Member, Partnership, Season
from leagues.scoring import number
from leagues.standings import shown_standings

STYLE = Style(
    background="#ffffff", plot_background="#ffffff", foreground="#1d232a",
    foreground_strong="#1d232a", foreground_subtle="#d9d6cc", opacity=".85",
    opacity_hover="1", font_family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    label_font_size=12, major_label_font_size=12, legend_font_size=12, title_font_size=15,
    value_font_size=11, tooltip_font_size=11,
    # Solid light guides and 2 px lines: a dashed line is a player's, drawn over another's.
    guide_stroke_dasharray="none", major_guide_stroke_dasharray="none",
    guide_stroke_color="#e3e0d6", major_guide_stroke_color="#cfcabb", stroke_width="2",
    colors=("#0b5d3b", "#b3261e", "#1f5fa8", "#c77700", "#6b3fa0", "#2a8c8c", "#8a6d3b",
            "#d0427f", "#4b7d1e", "#5b6570"))


def chart_config(**more) -> dict:
    # js=[]: pygal's tooltips load a script from elsewhere; an image needs none.
    return {"style": STYLE, "js": [], "disable_xml_declaration": True, "width": 440,
            "height": 300, "explicit_size": False, "print_values": False,
            "legend_at_bottom": True, "truncate_legend": 30, "truncate_label": -1,
            "x_label_rotation": 0, "dots_size": 3, "min_scale": 3, "max_scale": 6,
            # "−8", not "-8": a minus sign, in the reader's language (1,5 in French)
            "value_formatter": number, **more}


NICE_STEPS = (1, 2, 5)


def whole_labels(values) -> list[int]:
    """The vertical axis of a chart of ``values``: whole numbers, from 0 (or below it, for a
    negative value) to the largest, four to seven of them, in steps of 1, 2, 5, 10, 20, 50...
    (never 1.2 to 2.8: matches, points and units are counted in whole numbers)."""
    numbers = [float(v) for v in values if v is not None]
    low = math.floor(min([0.0, *numbers]))
    high = math.ceil(max([0.0, *numbers]))
    if high == low:
        high = low + 1
    scale = 1
    while True:
        for nice in NICE_STEPS:
            step = nice * scale
            if (high - low) / step <= 6:
                start, end = step * math.floor(low / step), step * math.ceil(high / step)
                return list(range(start, end + step, step))
        scale *= 10


def axis_from_zero(chart, values) -> None:
    """Whole numbers on ``chart``'s vertical axis, 0 among them (:func:`whole_labels`)."""
    labels = whole_labels(values)
    chart.y_labels = labels
    chart.range = (labels[0], labels[-1])


# What a legend's text takes, at the style's 12 px: pygal's own estimate of a character, a
# swatch and a gap (its columns share the plot's width, not the image's).
LEGEND_CHAR_PX = 7.5
LEGEND_SWATCH_PX = 30


def legend_columns(names, plot_width: float) -> int:
    """As many legend columns (1 to 3) as the plot's width holds the longest name in whole."""
    longest = max((len(n) for n in names), default=0)
    fits = int(plot_width // (LEGEND_SWATCH_PX + LEGEND_CHAR_PX * longest))
    return max(1, min(3, fits))


def date_axis(chart, labels: list[str], plot_width: float = 330) -> None:
    """The evenings along ``chart``'s bottom: turned when they would not fit side by side (many
    evenings, or a language's long months: "29 novembre"), with room on the right for the last
    one, so that no date runs off the image."""
    chart.x_labels = labels
    longest = max((len(label) for label in labels), default=0)
    turned = len(labels) * (longest + 1) * LEGEND_CHAR_PX > plot_width
    chart.x_label_rotation = 35 if turned else 0
    last = len(labels[-1]) if labels else 0
    chart.margin_right = max(16, round(LEGEND_CHAR_PX * last * (0.9 if turned else 0.5)))


def day_label(date) -> str:
    return date_format(date, "MONTH_DAY_FORMAT")


def as_float(value) -> float:
    return float(Decimal(value))


def member_leagues(member: Member) -> list[League]:
    """The leagues a member has a counted result in, each one chart on their page."""
    counted = EveningTable.objects.counted()
    seated = League.objects.filter(seasons__evenings__tables__in=counted.filter(
        Q(seats__member=member) | Q(substitutes__member=member)))
    paired = League.objects.filter(seasons__evenings__tables__in=counted.filter(
        Q(pair_0__first=member) | Q(pair_0__second=member) | Q(pair_1__first=member)
        | Q(pair_1__second=member)))
    return list((seated | paired).distinct().order_by("name"))


def member_series(member: Member, league: League) -> dict:
    """What the member's chart of ``league`` shows (the league's kind of score says): dates,
    values, and for a match league the opponents' scores and the matches won of those played."""
    counted = EveningTable.objects.counted().filter(evening__season__league=league)
    return league.score_kind.member_series(member, counted)


def member_caption(league: League, series: dict) -> str:
    return league.score_kind.member_caption(league, series)


def member_svg(member: Member, league: League) -> str:
    series = member_series(member, league)
    labels = [day_label(d) for d in series["dates"]]
    chart = league.score_kind.member_chart(member, series)
    chart.title = league.name
    date_axis(chart, labels)
    chart.x_labels_major_count = 8
    chart.show_minor_x_labels = len(labels) <= 8
    return chart.render(is_unicode=True)


def pair_svg(pair: Partnership) -> str:
    """A pair's score in each finished match against its opponents', by date."""
    labels, mine, theirs = [], [], []
    for table in (EveningTable.objects.counted().filter(winner__isnull=False)
                  .filter(Q(pair_0=pair) | Q(pair_1=pair)).select_related("evening")
                  .order_by("evening__date", "number")):
        side = 0 if table.pair_0_id == pair.pk else 1
        scores = [table.score_0, table.score_1]
        labels.append(day_label(table.evening.date))
        mine.append(as_float(scores[side]))
        theirs.append(as_float(scores[1 - side]))
    chart = pygal.Bar(**chart_config(x_title=_("Match"), y_title=_("Score")))
    chart.add(str(pair), mine)
    chart.add(_("Opponents"), theirs)
    axis_from_zero(chart, [*mine, *theirs])
    chart.title = str(pair)
    date_axis(chart, labels)
    chart.x_labels_major_count = 8
    chart.show_minor_x_labels = len(labels) <= 8
    return chart.render(is_unicode=True)


def season_series(season: Season) -> dict:
    """Each player's (or pair's) total after each evening of the season: balances (Solo,
    Belgian Whist), or league points for a match league (by the season's standings options),
    as the league's kind of score counts them; None before their first evening (a player who
    joined later starts where they joined, not on a line at 0).  One query (two with
    substitutes' parts)."""
    counted = EveningTable.objects.filter(evening__season=season).counted()
    gains: dict[str, dict] = defaultdict(lambda: defaultdict(Decimal))
    dates: dict = {}
    season.league.score_kind.season_gains_of(season, counted, season.standings_options, gains,
                                             dates)
    evenings = sorted(dates, key=lambda e: (dates[e], e))
    lines = {}
    for name, by_evening in gains.items():
        running: Decimal | None = None
        values: list[Decimal | None] = []
        for evening in evenings:
            if evening in by_evening:
                running = (running or Decimal(0)) + by_evening[evening]
            values.append(running)
        lines[name] = values
    ordered = sorted(lines.items(), key=lambda item: (-(item[1][-1] or 0) if item[1] else 0,
                                                      item[0]))
    return {"dates": [dates[e] for e in evenings], "lines": ordered}


def season_caption(season: Season) -> str:
    return season.league.score_kind.season_caption()


def tied_names(lines, positions: dict[str, int | None]) -> set[str]:
    """The names of ``lines`` the legend says are tied: those whose position in the season's
    standings (``positions``, by name) another line shares, as the table ranks them.  Equal
    totals the table's tie-break separates are not tied, and an unranked row ties with nobody."""
    shown = {name for name, _values in lines}
    by_position = defaultdict(list)
    for name, position in positions.items():
        if position is not None and name in shown:
            by_position[position].append(name)
    return {name for names in by_position.values() if len(names) > 1 for name in names}


def standings_positions(season: Season) -> dict[str, int | None]:
    """Each row's position in the season's standings, by the name its chart line has (a
    pair's, or a player's)."""
    return {str(row.pair) if hasattr(row, "pair") else row.name: row.position
            for row in shown_standings(season)}


def overlaps(lines) -> tuple[list[int], list[list[int]]]:
    """Where lines run on one another: for each line, how many lines drawn before it share one
    of its segments (it is drawn dashed, so that theirs shows between its dashes), and at each
    of its points how many drawn after it share the point (its dot is drawn larger: a ring
    around theirs)."""
    under, points = [], []
    for i, (_name, values) in enumerate(lines):
        earlier = [other for _n, other in lines[:i]]
        later = [other for _n, other in lines[i + 1:]]
        points.append([sum(v is not None and o[k] == v for o in later)
                       for k, v in enumerate(values)])
        under.append(max([sum(values[k] is not None and values[k + 1] is not None
                              and o[k] == values[k] and o[k + 1] == values[k + 1]
                              for o in earlier) for k in range(len(values) - 1)], default=0))
    return under, points


DOT = 3.0
DASHES = ("8 6", "3 11", "2 14")


def season_svg(season: Season) -> str:
    series = season_series(season)
    positions = standings_positions(season)
    # the legend in the table's order (its tie-breaks too); a line the table lacks, last
    table_order = {name: index for index, name in enumerate(positions)}
    lines = sorted(series["lines"], key=lambda line: table_order.get(line[0], len(positions)))
    tied = tied_names(lines, positions)
    titles = [_("%(name)s (tied)") % {"name": name} if name in tied else name
              for name, _values in lines]
    width = 440
    columns = legend_columns(titles, plot_width=width - 90)
    rows = math.ceil(len(titles) / columns) if titles else 0
    chart = pygal.Line(**chart_config(
        width=width, height=330 + 22 * rows, legend_at_bottom_columns=columns,
        truncate_legend=40, x_title=_("Evening"),
        y_title=season.league.score_kind.season_axis()))
    chart.title = f"{season.league.name} · {season.name}"
    date_axis(chart, [day_label(d) for d in series["dates"]])
    axis_from_zero(chart, [v for _name, values in lines for v in values])
    over, points = overlaps(lines)
    dashed = []
    for index, (title, (_name, values), on_others, at_points) in enumerate(
            zip(titles, lines, over, points, strict=True)):
        chart.add(title, [None if v is None else
                          {"value": as_float(v), "node": {"r": DOT + 2.5 * n}}
                          for v, n in zip(values, at_points, strict=True)])
        if on_others:
            dash = DASHES[min(on_others, len(DASHES)) - 1]
            dashed.append(f".serie-{index} .line{{stroke-dasharray:{dash}}}")
    if dashed:
        # pygal's own style first, then the dashes of the lines drawn over another's.
        chart.css = ["file://style.css", "file://graph.css", "inline:" + "".join(dashed)]
    return chart.render(is_unicode=True)
