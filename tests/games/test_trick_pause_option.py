"""How long a finished trick stays whole in the middle of the table is the table's own option:
chosen on the create form (the site's TRICK_PAUSE_SECONDS by default), kept by a rematch, sent
to the page as a number its script reads in every language."""

import re

import pytest

from games import tables
from games.forms import TableForm
from games.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def french_player(django_user_model):
    user = django_user_model.objects.create_user("lou", "lou@example.org", "pw-long-enough")
    user.profile.language = "fr"
    user.profile.save()
    return user


def as_offered(game: str, **changes) -> dict:
    """The create form's POST as the page offers it, with ``changes``."""
    form = TableForm(game)
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value not in (None, False):
            data[name] = "on" if value is True else value
    return {**data, **changes}


def pause_on_page(client, table) -> str:
    """The pause the page gives its script, once the table is dealt (the trick is shown)."""
    tables.fill_seats(table.pk, table.created_by, "easy")
    page = client.get(f"/tables/{table.pk}/").content.decode()
    return re.search(r'data-trick-pause="([^"]*)"', page).group(1)


def test_the_create_form_offers_the_pause_and_the_table_keeps_it(client, french_player,
                                                                 settings):
    settings.TRICK_PAUSE_SECONDS = 1.5
    client.force_login(french_player)
    form = client.get("/tables/new/bid_whist/").content.decode()
    chosen = re.search(r'<select name="trick_pause_ms"[^>]*>(.*?)</select>', form, re.S).group(1)
    assert re.findall(r'<option value="(\d+)"', chosen) == ["0", "1000", "1500", "3000"]
    assert '<option value="1500" selected>' in chosen  # the site's default, chosen already
    client.post("/tables/new/bid_whist/", as_offered("bid_whist", trick_pause_ms="3000"))
    table = Table.objects.get()
    assert table.trick_pause_ms == 3000
    assert pause_on_page(client, table) == "3"


def test_a_table_made_without_a_choice_pauses_as_the_site_is_set(client, french_player,
                                                                  settings):
    settings.TRICK_PAUSE_SECONDS = 1.5
    client.force_login(french_player)
    client.post("/tables/new/solo_whist/", as_offered("solo_whist", trick_pause_ms=""))
    table = Table.objects.get()
    assert table.trick_pause_ms == 1500
    # a French page writes 1,5 for people; the script is given 1.5
    assert pause_on_page(client, table) == "1.5"


def test_a_pause_that_is_not_offered_is_refused_in_words(client, french_player):
    client.force_login(french_player)
    response = client.post("/tables/new/bid_whist/",
                           as_offered("bid_whist", trick_pause_ms="42000"))
    assert response.status_code == 200 and not Table.objects.exists()
    assert "Sélectionnez un choix valide" in response.content.decode()
