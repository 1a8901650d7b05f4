"""The create-table form, and the one builder of house-rule fields (the create form and a
league's rules page): each rule in words, a table of points as a grid of number boxes."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from django import forms
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import registry
from games.engine_messages import engine_message
from games.models import MOVE_SECONDS_CHOICES, PUBLIC_MOVE_SECONDS, default_trick_pause_ms
from games.rules.errors import RulesError


def _in_words(spec: dict, value) -> str:
    """A rule's value as a player reads it: "yes", a choice's words, a number."""
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    label = spec.get("choice_labels", {}).get(value)
    if label:
        return gettext(label)
    return _number_words(value) if isinstance(value, (int, float)) else str(value)


def _number_words(value) -> str:
    """A number in a sentence, as the reader's language writes it: 0.1, 0,1 in French."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return number_format(value, use_l10n=True)


def _flatten(table, path: str = "") -> dict[str, object]:
    """``{"solo": {"base": {"6": 4}}}`` -> ``{"solo.base.6": 4}``: one entry per number."""
    if not isinstance(table, Mapping):
        return {path: table}
    out = {}
    for key, value in table.items():
        out.update(_flatten(value, f"{path}.{key}" if path else str(key)))
    return out


def _is_table_of_numbers(value) -> bool:
    return isinstance(value, Mapping) and bool(value) and all(
        _is_table_of_numbers(v) if isinstance(v, Mapping)
        else isinstance(v, (int, float)) and not isinstance(v, bool) for v in value.values())


_NUMBER = re.compile(r"[+-]?(\d{1,15}|\d{0,15}[.,]\d{1,15})")


class PointsGridWidget(forms.Widget):
    """A table of points (a rule whose value is nested objects of numbers, such as Belgian
    Whist's ``points_table``) as one row per contract and a number box per entry.  Each box is
    named ``<field>.<path>`` ("points_table.emballage.made.9"); an empty box plays the usual
    value."""

    use_fieldset = True

    def __init__(self, grid: PointsGrid, attrs=None):
        super().__init__(attrs)
        self.grid = grid

    def id_for_label(self, id_):
        return None  # a fieldset and its legend name the grid; each box has its own label

    def value_from_datadict(self, data, files, name):
        prefix = name + "."
        return {key[len(prefix):]: data.get(key) for key in data if key.startswith(prefix)}

    def value_omitted_from_data(self, data, files, name):
        return not any(key.startswith(name + ".") for key in data)

    def render(self, name, value, attrs=None, renderer=None):
        shown = _flatten(value) if isinstance(value, Mapping) else {}
        usual = _flatten(self.grid.default)
        rows = []
        def box(label, path):
            return format_html(
                '<label class="points-cell">{}<input type="number" name="{}" value="{}"'
                ' placeholder="{}" min="0" step="any" inputmode="decimal" aria-label="{}"{}>'
                '</label>',
                label, f"{name}.{path}", _number_text(shown.get(path)), _number_text(usual[path]),
                self.grid.cell_words(path),
                mark_safe(' aria-invalid="true"') if path in self.grid.invalid_paths else "")

        def line(what, boxes):
            return format_html(
                '<div class="points-line">{}{}</div>',
                format_html('<span class="points-what">{}</span>', what) if what else "",
                mark_safe("".join(boxes)))

        for contract, lines in self.grid.rows:
            html_lines, single = [], []  # entries of one number share a line, each labelled
            for what, cells in lines:
                if what and len(cells) == 1 and not cells[0][0]:
                    single.append(box(what, cells[0][1]))
                    continue
                if single:
                    html_lines.append(line("", single))
                    single = []
                html_lines.append(line(what, [box(number, path) for number, path in cells]))
            if single:
                html_lines.append(line("", single))
            rows.append(format_html('<tr><th scope="row">{}</th><td>{}</td></tr>',
                                    contract, mark_safe("".join(html_lines))))
        return format_html('<table class="points-grid"><tbody>{}</tbody></table>',
                           mark_safe("".join(rows)))


def _number_text(value) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value)


def _numbered(entry) -> bool:
    """``{"9": 10, "10": 15}``: one number per count of tricks, shown as one line of boxes."""
    return isinstance(entry, Mapping) and all(
        str(key).isdigit() and not isinstance(value, Mapping) for key, value in entry.items())


class PointsGrid:
    """The layout and words of a table of points: a row per contract (the game's words in the
    registry), in it a line per entry (the rule's ``entry_labels``, by path), a box per number
    (labelled by its count of tricks where the entry goes by tricks)."""

    def __init__(self, spec: dict, words: Mapping):
        self.default = spec["default"]
        labels = spec.get("entry_labels", {})
        self.invalid_paths: set[str] = set()
        self.rows: list[tuple[str, list[tuple[str, list[tuple[str, str]]]]]] = []
        self._words: dict[str, str] = {}

        def said(key: str) -> str:
            return gettext(labels[key]) if key in labels else key.rsplit(".", 1)[-1]

        for contract, entry in self.default.items():
            name = str(words[contract]) if contract in words else said(contract)
            if not isinstance(entry, Mapping):
                lines = [("", [("", contract)])]
            elif _numbered(entry):
                lines = [(said(contract) if contract in labels else "",
                          [(str(key), f"{contract}.{key}") for key in entry])]
            else:
                lines = []
                for key, sub in entry.items():
                    group = f"{contract}.{key}"
                    cells = ([(str(n), f"{group}.{n}") for n in sub] if isinstance(sub, Mapping)
                             else [("", group)])
                    lines.append((said(group), cells))
            self.rows.append((name, lines))
            for what, cells in lines:
                for number, path in cells:
                    self._words[path] = ", ".join(part for part in (name, what, number) if part)
        self.paths = set(self._words)

    def cell_words(self, path: str) -> str:
        """"Emballage, made, by the tricks taken, 9": a box named in words."""
        return self._words.get(path, path)


class PointsGridField(forms.Field):
    """Cleans the boxes of a :class:`PointsGridWidget` into the partial table the engine
    merges over its defaults (``{"piccolo": 9}``); the engine checks the values."""

    def __init__(self, grid: PointsGrid, **kwargs):
        self.grid = grid
        super().__init__(required=False, widget=PointsGridWidget(grid), **kwargs)

    def to_python(self, value):
        if not isinstance(value, Mapping):
            return {}
        table: dict = {}
        errors = []
        for path in sorted(self.grid.paths):
            text = value.get(path)
            if text is None or not str(text).strip():
                continue
            text = str(text).strip()
            if not _NUMBER.fullmatch(text):
                self.grid.invalid_paths.add(path)
                errors.append(forms.ValidationError(
                    _("%(where)s: “%(value)s” is not a number."),
                    params={"where": self.grid.cell_words(path), "value": text[:20]}))
                continue
            number = float(text.replace(",", "."))
            node = table
            *above, last = path.split(".")
            for key in above:
                node = node.setdefault(key, {})
            node[last] = int(number) if number.is_integer() else number
        if errors:
            raise forms.ValidationError(errors)
        return table


def rule_field(spec: dict, current=None, words: Mapping | None = None) -> forms.Field:
    """The form field of one house rule, from the engine's description of it; ``current`` is
    the value in force (a league's saved rules), else the default; ``words``: the game's words
    of its contracts (the registry's), for a table of points."""
    # The engine marks its labels and their choices with N_ (makemessages --keyword=N_), each
    # help text as the second argument of rule() (--keyword=rule:2).
    label = gettext(spec["label"]) if spec.get("label") else spec["name"].replace("_", " ")
    kind, default = spec["kind"], spec["default"]
    initial = default if current is None else current
    help_text = gettext(spec["help"])
    if not isinstance(default, (dict, list)):  # a whole table is in the field itself
        help_text += " " + gettext("Default: %(default)s.") % {
            "default": _in_words(spec, default)}
    common = {"label": label, "help_text": help_text, "initial": initial}
    if kind is bool:
        return forms.BooleanField(required=False, **common)
    if spec.get("choices"):
        shown = spec.get("choice_labels", {})
        return forms.ChoiceField(
            choices=[(c, gettext(shown[c]) if c in shown else c) for c in spec["choices"]],
            **common)
    if kind is int:
        return forms.IntegerField(min_value=spec.get("minimum"), max_value=spec.get("maximum"),
                                  **common)
    if kind is float:
        return forms.FloatField(min_value=spec.get("minimum"), max_value=spec.get("maximum"),
                                **common)
    if kind is str:
        return forms.CharField(**common)
    if _is_table_of_numbers(default):
        common["help_text"] += " " + gettext("An empty box plays the usual value, shown in grey.")
        return PointsGridField(PointsGrid(spec, words or {}), **common)
    common["initial"] = json.dumps(initial)
    return forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), **common)


def rules_in_words(game: str, overrides: Mapping | None) -> list[str]:
    """Each house rule a table or a league plays differently, as its players read it: "Score
    to win: 11", "The kitty is shown to everyone: yes", "Points table: Piccolo 9, Trou, made
    20" (only the entries that differ from the usual table)."""
    description = registry.game(game)
    values = description.rules_class.from_overrides(overrides or {}).overrides()
    said = []
    for spec in description.rules_class.describe():
        if spec["name"] not in values:
            continue
        value = values[spec["name"]]
        if isinstance(value, Mapping):
            grid = PointsGrid(spec, description.words)
            usual = _flatten(spec["default"])
            shown = ", ".join(f"{grid.cell_words(path)} {_number_words(number)}"
                              for path, number in _flatten(value).items()
                              if usual.get(path) != number)
        else:
            shown = _in_words(spec, value)
        label = gettext(spec["label"]) if spec.get("label") else spec["name"]
        said.append(gettext("%(rule)s: %(value)s") % {"rule": label, "value": shown})
    return said


def rule_changes_in_words(game: str, before: Mapping | None,
                          after: Mapping | None) -> list[tuple[str, str, str]]:
    """Each house rule played differently under ``after`` than under ``before`` (two sets of
    overrides), as ``(rule, before, after)`` in the reader's words: ("Score to win", "7",
    "11"); a table of points gives one entry per number that changed ("Points table,
    Piccolo", "8", "9")."""
    description = registry.game(game)
    old, new = dict(before or {}), dict(after or {})
    changes = []
    for spec in description.rules_class.describe():
        name, default = spec["name"], spec["default"]
        was, now = old.get(name, default), new.get(name, default)
        if was == now:
            continue
        label = gettext(spec["label"]) if spec.get("label") else name
        if isinstance(default, Mapping):
            grid = PointsGrid(spec, description.words)
            usual = _flatten(default)
            was_cells = {**usual, **_flatten(was)} if isinstance(was, Mapping) else usual
            now_cells = {**usual, **_flatten(now)} if isinstance(now, Mapping) else usual
            for path in [*usual, *(p for p in now_cells if p not in usual)]:
                if was_cells.get(path) != now_cells.get(path):
                    changes.append((f"{label}, {grid.cell_words(path)}",
                                    _number_words(was_cells.get(path)),
                                    _number_words(now_cells.get(path))))
        else:
            changes.append((label, _in_words(spec, was), _in_words(spec, now)))
    return changes


class HouseRulesMixin:
    """One field per house rule of a game, the one builder of house-rule forms: online tables
    (``TableForm``) and leagues (``leagues.forms.HouseRulesForm``) offer exactly the same
    options, checked by the engine the same way.  After ``is_valid()``, ``self.rules`` is the
    engine's Rules and ``self.overrides`` the rules that differ from the defaults."""

    # Given by the form this is mixed into (django.forms.Form).
    fields: dict[str, forms.Field]
    add_error: Callable[[str | None, Any], None]

    RULE_PREFIX = "rule_"
    # An online table never meets what a paper-only rule settles (a revoke cannot be played).
    OFFERS_PAPER_ONLY_RULES = True

    def add_house_rule_fields(self, game: str, current: dict | None = None) -> None:
        description = registry.game(game)
        self.rules_class = description.rules_class
        self.rule_specs = [spec for spec in self.rules_class.describe()
                           if self.OFFERS_PAPER_ONLY_RULES or not spec.get("paper_only")]
        self.label_suffix = ""  # labels are phrases; no colon to translate
        current = current or {}
        for spec in self.rule_specs:
            self.fields[self.RULE_PREFIX + spec["name"]] = rule_field(
                spec, current.get(spec["name"]), description.words)

    def clean_house_rules(self, cleaned: dict) -> None:
        overrides = {}
        for spec in self.rule_specs:
            key = self.RULE_PREFIX + spec["name"]
            if key not in cleaned:
                continue  # the field has its own error already
            value = cleaned[key]
            if spec["kind"] not in (bool, int, float, str) and isinstance(value, str):
                try:
                    value = json.loads(value)
                except json.JSONDecodeError as exc:
                    self.add_error(key, _("Not valid JSON: %(reason)s") % {"reason": exc.msg})
                    continue
                except (ValueError, RecursionError):  # a 5,000-digit number, 50,000 "["
                    self.add_error(key, _("This value is too large or too deeply nested."))
                    continue
            if isinstance(value, float) and value.is_integer():
                value = int(value)  # a stake multiplier of 2, not 2.0
            overrides[spec["name"]] = value
        try:
            self.rules = self.rules_class.from_overrides(overrides)
        except RulesError as exc:
            key = self._refused_field(exc)
            if key is None:
                raise forms.ValidationError(engine_message(exc)) from None
            self.add_error(key, engine_message(exc))
            return
        self.overrides = self.rules.overrides()

    def _refused_field(self, exc: RulesError) -> str | None:
        """The field an engine refusal is about (shown next to it), its table entry named in
        words ("Solo, by the tricks bid, 6" rather than "solo.base.6"); None: the whole form."""
        params = exc.params
        for spec in self.rule_specs:
            key = self.RULE_PREFIX + spec["name"]
            if key not in self.fields:
                continue
            if params.get("name") == spec["name"] or f"house rule {spec['name']}" in exc.template:
                field = self.fields[key]
                if isinstance(field, PointsGridField) and isinstance(params.get("path"), str):
                    path = params["path"]
                    if path in field.grid.paths:
                        field.grid.invalid_paths.add(path)
                    params["path"] = field.grid.cell_words(path)
                return key
        return None


def trick_pause_choices() -> list[tuple[int, str]]:
    """No pause, short, usual or long; the site's own default among them."""
    choices = {0: _("No pause"), 1000: _("1 second"), 1500: _("1.5 seconds"),
               3000: _("3 seconds")}
    default = default_trick_pause_ms()
    if default not in choices:
        choices[default] = _("%(seconds)s seconds") % {"seconds": f"{default / 1000:g}"}
    return sorted(choices.items())


def move_seconds_choices() -> list[tuple[int | str, str]]:
    """The usual (none at a private table, a minute at a public one: strangers should not
    wait on someone who walked off), no limit, or a time of one's own choosing."""
    usual = _("Usual: no limit at a private table, %(seconds)s seconds at a public one") % {
        "seconds": PUBLIC_MOVE_SECONDS}
    return [("", usual)] + [
        (seconds, _("%(seconds)s seconds") % {"seconds": seconds} if seconds
         else _("No limit")) for seconds in MOVE_SECONDS_CHOICES]


class TableForm(HouseRulesMixin, forms.Form):
    OFFERS_PAPER_ONLY_RULES = False

    is_private = forms.BooleanField(
        label=_("Private table"), required=False,
        help_text=_("Only people you send the invite link to can find and watch it."))
    deals_limit = forms.IntegerField(
        label=_("Number of deals"), required=False, min_value=1, max_value=200,
        help_text=_("The session ends after this many deals. Leave empty to play until the "
                    "table closes."))

    grace_seconds = forms.IntegerField(
        label=_("Grace period (seconds)"), initial=60, min_value=10, max_value=600,
        required=False,
        help_text=_("How long a player who drops off keeps their seat before a computer player "
                    "takes over; they get it back as soon as they return."))

    move_seconds = forms.TypedChoiceField(
        label=_("Time for each move"), coerce=int, required=False, empty_value=None,
        help_text=_("When a player has not moved in this time, a computer player makes that "
                    "one move for them; they keep their seat and play the next one."))

    trick_pause_ms = forms.TypedChoiceField(
        label=_("Pause on a finished trick"), coerce=int, required=False, empty_value=None,
        help_text=_("How long the cards of a finished trick stay in the middle of the "
                    "table, the winner marked, before they are gathered."))

    chat_during_play = forms.BooleanField(
        label=_("Free text during a hand"), required=False,
        help_text=_("Whist is played in silence: during a hand players say only the preset "
                    "phrases (good luck, well played, thanks, sorry), and their own words "
                    "between hands. Tick to allow their own words at any time."))

    def __init__(self, game: str, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        pause = self.fields["trick_pause_ms"]
        pause.choices = trick_pause_choices()
        pause.initial = default_trick_pause_ms()
        self.fields["move_seconds"].choices = move_seconds_choices()
        self.add_house_rule_fields(game)
        if not registry.game(game).plays_a_number_of_deals:
            del self.fields["deals_limit"]

    def clean(self):
        cleaned = super().clean()
        self.clean_house_rules(cleaned)
        return cleaned
