"""The leagues' charts, drawn on the server as SVG by pygal (no JavaScript on the page).

Each chart is one league's, never two games mixed: a member's running balance by evening
(Solo, Belgian Whist), their score in each match against the opponents' (Bid Whist pairs,
Cutthroat), and a season's totals by evening (balances, or league points for a match league).
The pages show them as ``<img src>`` of an SVG address (:mod:`leagues.views`): an SVG shown as
an image runs no script, and its own ``<style>`` is allowed on that response only.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

import pygal
from django.db.models import Q
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from pygal.style import Style

from leagues.models import EveningTable, League, Member, Partnership, Season
from leagues.scoring import number

STYLE = Style(
    background="#ffffff", plot_background="#ffffff", foreground="#1d232a",
    foreground_strong="#1d232a", foreground_subtle="#d9d6cc", opacity=".85",
    opacity_hover="1", font_family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    label_font_size=12, major_label_font_size=12, legend_font_size=12, title_font_size=15,
    value_font_size=11, tooltip_font_size=11,
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


def day_label(date) -> str:
    return date_format(date, "j M")


def as_float(value) -> float:
    return float(Decimal(value))


def member_leagues(member: Member) -> list[League]:
    """The leagues a member has a counted result in, each one chart on their page."""
    counted = EveningTable.objects.counted()
    seated = League.objects.filter(seasons__evenings__tables__in=counted.filter(
        seats__member=member))
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
    chart.x_labels = labels
    chart.x_label_rotation = 35 if len(labels) > 5 else 0
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
    chart.title = str(pair)
    chart.x_labels = labels
    chart.x_label_rotation = 35 if len(labels) > 5 else 0
    chart.x_labels_major_count = 8
    chart.show_minor_x_labels = len(labels) <= 8
    return chart.render(is_unicode=True)


def season_series(season: Season) -> dict:
    """Each player's (or pair's) total after each evening of the season: balances (Solo,
    Belgian Whist), or league points for a match league (by the season's standings options),
    as the league's kind of score counts them.  One query (two with substitutes' parts)."""
    counted = EveningTable.objects.filter(evening__season=season).counted()
    gains: dict[str, dict] = defaultdict(lambda: defaultdict(Decimal))
    dates: dict = {}
    season.league.score_kind.season_gains(counted, season.standings_options, gains, dates)
    evenings = sorted(dates, key=lambda e: (dates[e], e))
    lines = {}
    for name, by_evening in gains.items():
        running, values = Decimal(0), []
        for evening in evenings:
            running += by_evening.get(evening, 0)
            values.append(running)
        lines[name] = values
    ordered = sorted(lines.items(), key=lambda item: (-(item[1][-1] if item[1] else 0),
                                                      item[0]))
    return {"dates": [dates[e] for e in evenings], "lines": ordered}


def season_caption(season: Season) -> str:
    return season.league.score_kind.season_caption()


def season_svg(season: Season) -> str:
    series = season_series(season)
    chart = pygal.Line(**chart_config(
        height=380, legend_at_bottom_columns=3, x_title=_("Evening"),
        y_title=season.league.score_kind.season_axis()))
    chart.title = f"{season.league.name} · {season.name}"
    chart.x_labels = [day_label(d) for d in series["dates"]]
    chart.x_label_rotation = 35 if len(series["dates"]) > 5 else 0
    for name, values in series["lines"]:
        chart.add(name, [as_float(v) for v in values])
    return chart.render(is_unicode=True)
