"""The house rules as players read them: a label per rule and per choice, in the page's
language, and Belgian Whist's points table as a grid of number boxes."""

import re

import pytest

from games import registry
from games.forms import TableForm
from games.models import Table
from games.rules.belgian_whist import DEFAULT_POINTS_TABLE
from games.rules.belgian_whist import Rules as BelgianRules

GRID = "rule_points_table."


def flat(table, path=""):
    if not isinstance(table, dict):
        return {path: table}
    out = {}
    for key, value in table.items():
        out.update(flat(value, f"{path}.{key}" if path else key))
    return out


def grid_post(**changed):
    """Every box of the grid as a browser posts it, the default values but ``changed``."""
    cells = {GRID + path: str(value) for path, value in flat(DEFAULT_POINTS_TABLE).items()}
    cells.update({GRID + path.replace("__", "."): value for path, value in changed.items()})
    return {"grace_seconds": 60, **cells}


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("pat", "pat@example.org", "pw-long-enough")


@pytest.fixture
def french_player(player):
    player.profile.language = "fr"
    player.profile.save()
    return player


def all_specs():
    return [(each.id, spec) for each in registry.all_games()
            for spec in each.rules_class.describe()]


@pytest.mark.parametrize("game, spec", all_specs(), ids=lambda v: v if isinstance(v, str)
                         else v["name"])
def test_every_house_rule_and_every_choice_has_words(game, spec):
    assert spec["label"], f"{game}: house rule {spec['name']} has no label"
    assert not spec["label"].endswith(":")
    for choice in spec["choices"] or ():
        assert spec["choice_labels"].get(choice), f"{game}.{spec['name']}: {choice} has no words"
        # The help text speaks through the choices' words, never their ids.
        assert f"({choice})" not in spec["help"] and f"{choice}," not in spec["help"]


def test_every_entry_of_the_points_table_has_words():
    spec = next(s for s in BelgianRules.describe() if s["name"] == "points_table")
    words = registry.game(BelgianRules.GAME).words
    for contract, entry in DEFAULT_POINTS_TABLE.items():
        assert contract in words
        if isinstance(entry, dict) and not all(key.isdigit() for key in entry):
            for key in entry:
                assert f"{contract}.{key}" in spec["entry_labels"], (contract, key)


@pytest.mark.django_db
@pytest.mark.parametrize("game", [each.id for each in registry.all_games()])
def test_the_french_create_page_shows_no_raw_rule_id(client, french_player, game):
    client.force_login(french_player)
    page = client.get(f"/tables/new/{game}/").content.decode()
    assert '<html lang="fr">' in page
    ids = {str(choice) for _, spec in all_specs() for choice in spec["choices"] or ()}
    names = {spec["name"] for _, spec in all_specs()}
    for value, shown in re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', page):
        assert shown.strip() and shown.strip() not in ids, (value, shown)
    labels = re.findall(r"<label[^>]*>([^<]*)</label>", page)
    legends = re.findall(r"<legend>([^<]*)</legend>", page)
    for text in labels + legends:
        assert not text.strip().endswith(":"), text
        assert text.strip() not in names and "_" not in text, text
    for help_text in re.findall(r'<span class="helptext"[^>]*>([^<]*)</span>', page):
        assert not re.search(r"\b(True|False)\b", help_text) and "_" not in help_text, help_text


@pytest.mark.django_db
def test_the_belgian_form_is_a_grid_with_a_row_per_contract(client, player):
    client.force_login(player)
    page = client.get("/tables/new/belgian_whist/").content.decode()
    assert "<textarea" not in page and 'class="points-grid"' in page
    for words in ("Emballage", "Solo", "Abondance", "Petit chelem", "Piccolo", "Trou"):
        assert f'<th scope="row">{words}</th>' in page
    assert 'name="rule_points_table.emballage.made.9" value="11"' in page
    assert 'name="rule_points_table.emballage.per_missing_trick" value="3"' in page
    assert 'name="rule_points_table.solo.extra_tricks_until" value="8"' in page
    assert 'aria-label="Emballage, made, by the tricks taken, 9"' in page


@pytest.mark.django_db
def test_a_grid_post_stores_what_the_json_table_did(client, player):
    client.force_login(player)
    response = client.post("/tables/new/belgian_whist/",
                           grid_post(piccolo="9", solo__base__6="5", abondance__11="22.5"))
    table = Table.objects.get()
    assert response.status_code == 302
    expected = BelgianRules.from_overrides(
        {"points_table": {"piccolo": 9, "solo": {"base": {"6": 5}}, "abondance": {"11": 22.5}}})
    assert table.rules == expected.overrides()
    assert table.rules["points_table"]["piccolo"] == 9


@pytest.mark.django_db
def test_an_unchanged_grid_stores_no_override(client, player):
    client.force_login(player)
    client.post("/tables/new/belgian_whist/", grid_post())
    assert Table.objects.get().rules == {}


@pytest.mark.django_db
@pytest.mark.parametrize("cell, value, said", [
    ("solo__base__6", "abc", "Solo, by the tricks bid, 6: “abc” is not a number."),
    ("piccolo", "1e400", "Piccolo: “1e400” is not a number."),
    ("piccolo", "NaN", "Piccolo: “NaN” is not a number."),
    ("piccolo", "1" + "0" * 5000, "is not a number"),
    ("trou__made", "-1", "Trou, made is -1, expected a number from 0"),
    ("grand_chelem", "10001", "Grand chelem is 10001, expected a number from 0"),
    ("solo__extra_tricks_until", "5",
     "Solo, tricks over count up to is 5, expected a whole number from 6 to 13"),
])
def test_a_bad_box_is_named_in_words_next_to_the_grid(client, player, cell, value, said):
    client.force_login(player)
    response = client.post("/tables/new/belgian_whist/", grid_post(**{cell: value}))
    assert response.status_code == 200
    page = response.content.decode()
    grid = page[page.index('<fieldset class="field grid">'):page.index("</fieldset>")]
    assert said in grid
    assert "aria-invalid" in grid
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_an_empty_box_plays_the_usual_value(client, player):
    client.force_login(player)
    client.post("/tables/new/belgian_whist/", grid_post(piccolo="", trou__failed="20"))
    assert Table.objects.get().rules["points_table"]["piccolo"] == DEFAULT_POINTS_TABLE["piccolo"]


def test_the_league_form_shows_the_leagues_values_in_the_grid():
    from leagues.forms import HouseRulesForm

    current = BelgianRules.from_overrides({"points_table": {"piccolo": 9}}).overrides()
    html = str(HouseRulesForm(BelgianRules.GAME, current)["points_table"])
    assert 'name="points_table.piccolo" value="9"' in html
    assert 'name="points_table.emballage.made.8" value="8"' in html


def test_a_yes_no_rule_says_its_default_in_words():
    field = TableForm(registry.all_games()[0].id).fields["rule_kitty_shown"]
    assert field.help_text.endswith("Default: no.")
    assert not field.label.endswith(":")


def test_the_rules_a_table_plays_differently_read_in_words():
    from games.forms import rules_in_words

    bid = registry.all_games()[0].id
    assert rules_in_words(bid, {"all_pass": "stuck_dealer", "kitty_shown": True}) == [
        "The kitty is shown to everyone: yes", "When all four pass: the dealer may not pass "
        "and must bid"]
    assert rules_in_words(BelgianRules.GAME, {"points_table": {"piccolo": 9, "trou": {
        "made": 20}}}) == ["Points table: Trou, made 20, Piccolo 9"]
    assert rules_in_words(bid, {}) == []


def test_a_paper_only_rule_is_offered_to_leagues_and_not_to_online_tables():
    from games.forms import TableForm
    from leagues.forms import HouseRulesForm

    def rules_offered(form):
        return {name.removeprefix(form.RULE_PREFIX) for name in form.fields
                if name.startswith(form.RULE_PREFIX)}

    online, league = TableForm("solo_whist"), HouseRulesForm("solo_whist", {})
    assert "revoke_penalty" in rules_offered(league)
    assert rules_offered(online) == rules_offered(league) - {"revoke_penalty"}
