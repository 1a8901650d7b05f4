"""Result entry at the venue: deal by deal with running totals, totals only, corrections,
provisional entry by a player."""

import re

import pytest

from leagues.models import ResultChange

from .conftest import bid, solo

pytestmark = pytest.mark.django_db

# The "next deal" form carries the number of the deal it adds (here the first).
SOLO_DEAL = {"contract": "solo", "declarer": "0", "partner": "", "tricks": "6", "number": "1"}


def url(table, suffix=""):
    return f"/clubs/{table.evening.season.league.club.slug}/tables/{table.pk}/{suffix}"


def test_organiser_enters_a_deal_and_sees_the_running_totals(as_organiser, solo_table):
    response = as_organiser.post(url(solo_table, "deals/"), SOLO_DEAL, follow=True)
    page = response.content.decode()
    assert "Deal 1 entered." in page
    assert "Olga" in page or "olga" in page
    assert solo_table.deals.count() == 1
    assert [s.total for s in solo_table.seats.order_by("seat")] == [9, -3, -3, -3]
    sheet = response.context["sheet"]
    assert sheet["rows"][0]["running"] == ["9", "-3", "-3", "-3"]


def test_running_totals_add_up_deal_after_deal(as_organiser, solo_table, organiser_user):
    solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    solo_table.add_deal(solo("misere", 1, 1), organiser_user)
    sheet = as_organiser.get(url(solo_table)).context["sheet"]
    assert [row["running"] for row in sheet["rows"]] == [["9", "-3", "-3", "-3"],
                                                        ["12", "-12", "0", "0"]]


def test_an_impossible_deal_is_refused_with_a_message(as_organiser, solo_table):
    deal = {**SOLO_DEAL, "contract": "prop_and_cop"}  # no partner
    response = as_organiser.post(url(solo_table, "deals/"), deal, follow=True)
    page = response.content.decode()
    assert "Prop and cop is played by two: choose the declarer&#x27;s partner." in page
    assert "None" not in page and "seat 0-3" not in page  # words, never the engine's notation
    assert not solo_table.deals.exists()


def test_a_revoke_turns_a_made_solo_into_a_lost_one(as_organiser, solo_table):
    # Olga (seat 0) made her solo with 6 tricks but was caught revoking: she loses the deal.
    response = as_organiser.post(url(solo_table, "deals/"), {**SOLO_DEAL, "revoke": "0"},
                                 follow=True)
    assert "Deal 1 entered." in response.content.decode()
    assert [s.total for s in solo_table.seats.order_by("seat")] == [-9, 3, 3, 3]
    assert response.context["sheet"]["rows"][0]["running"] == ["-9", "3", "3", "3"]
    assert "revoke by olga" in response.content.decode().lower()


def test_under_three_tricks_a_defenders_revoke_gives_the_soloist_three_tricks(
        as_organiser, solo_table):
    league = solo_table.league
    league.rules = {"revoke_penalty": "three_tricks"}
    league.save()
    # 3 tricks fail a solo; Mike's revoke (seat 1, a defender) moves 3 more to the declarer.
    as_organiser.post(url(solo_table, "deals/"), {**SOLO_DEAL, "tricks": "3", "revoke": "1"})
    assert [s.total for s in solo_table.seats.order_by("seat")] == [9, -3, -3, -3]


def test_a_corrected_deal_can_gain_or_lose_its_revoke(as_organiser, solo_table, organiser_user):
    solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    as_organiser.post(url(solo_table, "deals/1/"), {**SOLO_DEAL, "revoke": "0"})
    assert [s.total for s in solo_table.seats.order_by("seat")] == [-9, 3, 3, 3]
    form = as_organiser.get(url(solo_table, "deals/1/")).context["form"]
    assert form.initial["revoke"] == 0
    as_organiser.post(url(solo_table, "deals/1/"), SOLO_DEAL)
    assert [s.total for s in solo_table.seats.order_by("seat")] == [9, -3, -3, -3]


def test_a_revoke_by_nobody_at_the_table_is_refused_and_changes_nothing(as_organiser,
                                                                        solo_table):
    response = as_organiser.post(url(solo_table, "deals/"), {**SOLO_DEAL, "revoke": "4"},
                                 follow=True)
    assert "Nobody at this table sits there." in response.content.decode()
    assert not solo_table.deals.exists()
    assert [s.total for s in solo_table.seats.order_by("seat")] == [0, 0, 0, 0]


def test_a_house_without_prop_and_cop_refuses_one_on_paper(as_organiser, solo_table):
    league = solo_table.league
    league.rules = {"prop_and_cop": False}
    league.save()
    sheet = as_organiser.get(url(solo_table)).content.decode()
    assert 'value="solo"' in sheet and 'value="prop_and_cop"' not in sheet  # not offered
    deal = {**SOLO_DEAL, "contract": "prop_and_cop", "partner": "2", "tricks": "8"}
    response = as_organiser.post(url(solo_table, "deals/"), deal, follow=True)
    page = response.content.decode()
    assert "house rules do not play that contract" in page and "prop_and_cop" not in page
    assert not solo_table.deals.exists()


def test_members_do_not_enter_results(as_member, solo_table):
    assert as_member.post(url(solo_table, "deals/"), SOLO_DEAL).status_code == 403
    assert "Next deal" not in as_member.get(url(solo_table)).content.decode()
    assert not solo_table.deals.exists()


def test_outsiders_see_nothing_of_the_table(as_outsider, solo_table):
    assert as_outsider.get(url(solo_table)).status_code == 404
    assert as_outsider.post(url(solo_table, "deals/"), SOLO_DEAL).status_code == 404


def test_bid_whist_hand_entry_shows_the_match_end(as_organiser, bid_table):
    hand = {"team": "0", "bid": "4", "mode": "notrump", "books": "11", "revoke": "",
            "number": "1", "ends_the_match": "1"}
    response = as_organiser.post(url(bid_table, "deals/"), hand, follow=True)
    page = response.content.decode()
    assert "Match over: Aces won." in page  # 5 books over, doubled in notrump: 10
    bid_table.refresh_from_db()
    assert bid_table.score_0 == 10 and bid_table.winner == 0
    assert "Next deal" not in as_organiser.get(url(bid_table)).content.decode()
    # From the page's script the last hand's entry is still confirmed, beside the match's end.
    swapped = as_organiser.post(url(bid_table, "deals/"), {**hand, "number": "1"},
                                HTTP_HX_REQUEST="true").content.decode()
    assert "Deal 1 was already entered" in swapped and "Match over: Aces won." in swapped
    response = as_organiser.post(url(bid_table, "deals/"), {**hand, "number": "2"}, follow=True)
    assert "The match is over" in response.content.decode()


def test_the_bid_buttons_start_at_the_leagues_lowest_bid(as_organiser, bid_table):
    league = bid_table.evening.season.league
    league.rules = {"min_bid": 4}
    league.save()
    page = as_organiser.get(url(bid_table)).content.decode()
    bids = re.findall(r'name="bid" value="(\d)"', page)
    assert bids == ["4", "5", "6", "7"]
    response = as_organiser.post(url(bid_table, "deals/"), {
        "team": "0", "bid": "3", "mode": "uptown", "books": "9", "revoke": "", "number": "1"})
    assert "do not allow that bid" in response.content.decode()
    assert bid_table.deals.count() == 0


def test_organiser_corrects_a_deal_and_totals_follow(as_organiser, solo_table, organiser_user):
    solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    response = as_organiser.post(url(solo_table, "deals/1/"),
                                 {**SOLO_DEAL, "tricks": "4"}, follow=True)
    assert "Deal 1 corrected." in response.content.decode()
    assert [s.total for s in solo_table.seats.order_by("seat")] == [-9, 3, 3, 3]
    history = as_organiser.get(url(solo_table, "changes/")).content.decode()
    assert "Deal 1 corrected by olga" in history
    assert "olga: Solo, 6 tricks → olga: Solo, 4 tricks" in history


def test_organiser_deletes_a_deal(as_organiser, solo_table, organiser_user):
    solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    deal = solo_table.deals.get()
    as_organiser.post(url(solo_table, "deals/1/delete/"), {"deal": deal.pk})
    assert not solo_table.deals.exists()
    assert [s.total for s in solo_table.seats.order_by("seat")] == [0, 0, 0, 0]


def test_members_and_outsiders_cannot_correct(as_member, solo_table, organiser_user, client,
                                              outsider_user):
    solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    assert as_member.post(url(solo_table, "deals/1/delete/")).status_code == 403
    client.force_login(outsider_user)
    assert client.post(url(solo_table, "deals/1/delete/")).status_code == 404
    assert solo_table.deals.count() == 1


def test_totals_only_entry_must_balance(as_organiser, solo_table):
    response = as_organiser.post(url(solo_table, "totals/"), {
        "total_0": "10", "total_1": "-2", "total_2": "-3", "total_3": "-3"}, follow=True)
    assert "The totals must add up to zero; they add up to 2." in response.content.decode()
    assert solo_table.seats.filter(total=0).count() == 4
    as_organiser.post(url(solo_table, "totals/"), {
        "total_0": "12", "total_1": "-4", "total_2": "-4", "total_3": "-4"})
    assert [s.total for s in solo_table.seats.order_by("seat")] == [12, -4, -4, -4]
    assert ResultChange.objects.filter(action="totals").count() == 1


def test_totals_that_do_not_add_up_stay_as_typed_with_what_is_wrong(as_organiser, solo_table,
                                                                    bid_table):
    typed = {"total_0": "10", "total_1": "-2,5", "total_2": "-3", "total_3": "-3"}
    page = as_organiser.post(url(solo_table, "totals/"), typed).content.decode()
    assert "Enter a number for every total." in page  # "-2,5" is not a number here
    typed["total_1"] = "-2"
    response = as_organiser.post(url(solo_table, "totals/"), typed)
    page = response.content.decode()
    assert response.status_code == 200
    assert "The totals must add up to zero; they add up to 2." in page
    assert "Nothing was saved: correct the totals below." in page
    for name, value in typed.items():
        assert f'name="{name}" value="{value}"' in page
    assert solo_table.seats.filter(total=0).count() == 4
    assert not ResultChange.objects.filter(action="totals").exists()
    # a Bid Whist match's scores: a team must have reached the target
    response = as_organiser.post(url(bid_table, "totals/"), {"total_0": "3", "total_1": "2"})
    page = response.content.decode()
    assert 'name="total_0" value="3"' in page and 'name="total_1" value="2"' in page
    assert "Nothing was saved" in page and bid_table.deals.count() == 0
    bid_table.refresh_from_db()
    assert bid_table.entry == ""


def test_change_history_is_visible_to_members_not_outsiders(as_member, solo_table, client,
                                                            outsider_user, organiser_user):
    solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    assert "Deal 1 entered by olga" in as_member.get(url(solo_table, "changes/")).content.decode()
    client.force_login(outsider_user)
    assert client.get(url(solo_table, "changes/")).status_code == 404


def test_a_player_entry_is_provisional_until_an_opponent_confirms(
        client, solo_table, member_user, organiser, member, django_user_model):
    league = solo_table.league
    league.players_enter_results = True
    league.save()
    client.force_login(member_user)
    response = client.post(url(solo_table, "deals/"), SOLO_DEAL, follow=True)
    assert "wait for an opponent to confirm them" in response.content.decode()
    deal = solo_table.deals.get()
    assert deal.provisional and deal.entered_by_member == member
    # The player who entered cannot confirm their own entry...
    response = client.post(url(solo_table, "confirm/"), follow=True)
    assert "There is nothing here that you may confirm" in response.content.decode()
    solo_table.refresh_from_db()
    assert solo_table.is_provisional
    # ...an opponent at the table can.
    opponent_user = django_user_model.objects.create_user("nell", "n@example.org", "pw")
    nell = solo_table.seats.get(seat=2).member
    nell.user = opponent_user
    nell.save()
    client.force_login(opponent_user)
    client.post(url(solo_table, "confirm/"))
    solo_table.refresh_from_db()
    assert not solo_table.is_provisional


def test_a_player_not_at_the_table_cannot_enter(client, solo_table, django_user_model):
    league = solo_table.league
    league.players_enter_results = True
    league.save()
    user = django_user_model.objects.create_user("zed", "z@example.org", "pw")
    solo_table.evening.season.league.club.members.create(user=user, name="Zed")
    client.force_login(user)
    assert client.post(url(solo_table, "deals/"), SOLO_DEAL).status_code == 403


def test_bid_whist_totals_only(as_organiser, bid_table):
    as_organiser.post(url(bid_table, "totals/"), {"total_0": "3", "total_1": "8"})
    bid_table.refresh_from_db()
    assert bid_table.winner == 1


def test_bid_deal_helper_is_consistent(bid_table, organiser_user):
    bid_table.add_deal(bid(1, 3, "uptown", 10), organiser_user)
    bid_table.refresh_from_db()
    assert bid_table.score_1 == 4


# -- entry at the venue: the form comes back as typed, and the script needs no reload --------


def chosen(form: str, name: str) -> str:
    """The value of the choice button ticked for ``name``."""
    import re

    return re.search(rf'name="{name}" value="([^"]*)"[^>]*checked', form).group(1)


def deal_entry_part(page: str) -> str:
    return page[page.index('id="deal-entry"'):]


def test_a_refused_deal_comes_back_as_typed_with_the_error_beside_the_form(as_organiser,
                                                                          solo_table):
    deal = {**SOLO_DEAL, "contract": "prop_and_cop", "declarer": "2", "tricks": "9"}  # no partner
    response = as_organiser.post(url(solo_table, "deals/"), deal)
    assert response.status_code == 200  # the page again, not a redirect: nothing is lost
    form = deal_entry_part(response.content.decode())
    assert "Prop and cop is played by two" in form
    assert chosen(form, "contract") == "prop_and_cop" and chosen(form, "declarer") == "2"
    assert 'value="9"' in form
    assert not solo_table.deals.exists() and not ResultChange.objects.exists()


def test_a_field_left_empty_is_named_beside_the_field(as_organiser, solo_table):
    response = as_organiser.post(url(solo_table, "deals/"), {**SOLO_DEAL, "tricks": ""})
    form = deal_entry_part(response.content.decode())
    assert "This field is required." in form
    assert chosen(form, "contract") == "solo"  # the rest as typed
    assert not solo_table.deals.exists()


def test_the_pages_script_enters_a_deal_without_a_reload(as_organiser, solo_table):
    response = as_organiser.post(url(solo_table, "deals/"), SOLO_DEAL, HTTP_HX_REQUEST="true")
    assert response.status_code == 200  # swapped in place by htmx, no redirect to follow
    part = deal_entry_part(response.content.decode())
    assert "Deal 1 entered." in part and 'role="status"' in part
    assert 'name="number" value="2"' in part  # the next deal's form, ready
    assert "autofocus" in part
    assert "Totals so far:" in part and "<strong>9</strong>" in part
    assert solo_table.deals.count() == 1
    # the same form sent again (a double tap) adds nothing
    again = as_organiser.post(url(solo_table, "deals/"), SOLO_DEAL, HTTP_HX_REQUEST="true")
    assert solo_table.deals.count() == 1 and again.status_code == 200


def test_without_the_script_an_entered_deal_redirects_to_the_sheet(as_organiser, solo_table):
    response = as_organiser.post(url(solo_table, "deals/"), SOLO_DEAL)
    assert response.status_code == 302 and response["Location"] == url(solo_table)


def test_the_next_deals_form_comes_before_the_sheet(as_organiser, solo_table, organiser_user):
    solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    page = as_organiser.get(url(solo_table)).content.decode()
    assert page.index("Next deal") < page.index('class="data sheet"')


@pytest.mark.parametrize("contract, partner, said", [
    ("solo", "1", "Solo is played without a partner: leave the partner empty."),
    ("prop_and_cop", "0", "The partner is another player than the declarer."),
])
def test_a_partner_that_does_not_fit_the_contract_is_told_in_words(as_organiser, solo_table,
                                                                  contract, partner, said):
    deal = {**SOLO_DEAL, "contract": contract, "partner": partner}
    page = deal_entry_part(as_organiser.post(url(solo_table, "deals/"), deal).content.decode())
    assert said in page and not solo_table.deals.exists()


def test_on_a_new_table_the_next_deals_form_comes_before_everything_else(as_organiser,
                                                                         solo_table):
    # At the venue the organiser opens a table nobody has played yet: the form to enter its
    # first deal comes first, not the offer to play the table online or the expected outcome.
    page = as_organiser.get(url(solo_table)).content.decode()
    assert "Play this table online" in page and "Expected outcome" in page
    form = page.index('id="next-deal"')
    assert form < page.index("Play this table online")
    assert form < page.index("Expected outcome")
    assert form < page.index('class="data sheet"')
    assert "{#" not in page and "#}" not in page  # the template's notes stay in the template


def test_bid_whist_totals_and_the_match_end_show_at_once_after_each_hand(as_organiser,
                                                                          bid_table):
    """From the page's script (no reload) the Total row is the last hand's running score, and
    the hand that ends the match says so at once."""
    import re

    def entered(number, team, books):
        return as_organiser.post(url(bid_table, "deals/"), {
            "team": team, "bid": "3", "mode": "uptown", "books": books, "revoke": "",
            "number": str(number)}, HTTP_HX_REQUEST="true").content.decode()

    for number, (team, books) in enumerate([("0", "9"), ("1", "9"), ("0", "9")], start=1):
        page = entered(number, team, books)
        last_row = re.findall(rf'<tr[^>]*>\s*<td class="deal-number"><a [^>]*'
                              rf'aria-label="Correct deal {number}".*?</tr>', page, re.S)[-1]
        running = re.findall(r'<td class="num"><strong>([^<]*)</strong></td>', last_row)
        total = re.search(r"<tfoot>.*?</tfoot>", page, re.S).group(0)
        assert re.findall(r'<th class="num">([^<]*)</th>', total) == running, number
    page = entered(4, "0", "10")  # 3 + 4 = 7: Aces would reach the target: asked first
    assert "This hand ends the match. Enter it?" in page and "Match over" not in page
    assert bid_table.deals.count() == 3
    page = as_organiser.post(url(bid_table, "deals/"), {
        "team": "0", "bid": "3", "mode": "uptown", "books": "10", "revoke": "", "number": "4",
        "ends_the_match": "1"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Match over: Aces won." in page


def test_bid_whist_books_are_refused_in_words_and_said_in_good_english(as_organiser,
                                                                        bid_table):
    hand = {"team": "0", "bid": "3", "mode": "uptown", "books": "0", "revoke": "",
            "number": "1"}
    page = as_organiser.post(url(bid_table, "deals/"), hand).content.decode()
    assert "The bidding team takes at least 1 book: the kitty they laid away is their first." \
        in page
    assert "not 0" not in page and not bid_table.deals.exists()
    page = as_organiser.post(url(bid_table, "deals/"), {**hand, "books": "1"},
                             follow=True).content.decode()
    assert "took 1 book" in page and "took 1 books" not in page


def test_totals_entered_come_back_in_their_form_to_correct_one(as_organiser, solo_table):
    """A total typed in the wrong box still adds up to zero: the organiser corrects the two
    boxes from the totals as entered (and the form says so), not four numbers typed again."""
    as_organiser.post(url(solo_table, "totals/"), {
        "total_0": "12", "total_1": "-4", "total_2": "-3.5", "total_3": "-4.5"})
    page = as_organiser.get(url(solo_table)).content.decode()
    assert "Correct the totals" in page and "Or enter the totals only" not in page
    for name, value in (("total_0", "12"), ("total_1", "-4"), ("total_2", "-3.5"),
                        ("total_3", "-4.5")):
        assert f'name="{name}" value="{value}"' in page
    as_organiser.post(url(solo_table, "totals/"), {
        "total_0": "12", "total_1": "-3.5", "total_2": "-4", "total_3": "-4.5"})
    assert [s.total for s in solo_table.seats.order_by("seat")] == [12, -3.5, -4, -4.5]
    # a table without a result yet offers empty boxes
    solo_table.clear_totals(None)
    page = as_organiser.get(url(solo_table)).content.decode()
    assert "Or enter the totals only" in page and 'name="total_0" value=' not in page
