"""A member's rating in one game over time, drawn as the leagues' charts are (pygal, served as
an SVG image: ``leagues.charts``)."""

from __future__ import annotations

import pygal
from django.utils.translation import gettext as _

from games import registry
from leagues.charts import chart_config, day_label
from ratings import read


def member_rating_svg(member, game_id: str) -> str:
    """The rating at the end of each day the member played ``game_id``, and the band of its
    uncertainty (the "±" of the pages)."""
    days = next((each["points"] for each in read.member_history(member)
                 if each["game"].id == game_id), [])
    chart = pygal.Line(**chart_config(x_title=_("Day played"), y_title=_("Rating"),
                                      min_scale=4))
    chart.title = str(registry.game(game_id).label)
    chart.x_labels = [day_label(day) for day, _row in days]
    chart.x_label_rotation = 35 if len(days) > 5 else 0
    chart.x_labels_major_count = 8
    chart.show_minor_x_labels = len(days) <= 8
    chart.add(member.name, [row.value for _day, row in days])
    chart.add(_("Lowest likely"), [row.value - row.plus_minus for _day, row in days],
              show_dots=False, stroke_style={"dasharray": "4, 4"})
    chart.add(_("Highest likely"), [row.value + row.plus_minus for _day, row in days],
              show_dots=False, stroke_style={"dasharray": "4, 4"})
    return chart.render(is_unicode=True)
