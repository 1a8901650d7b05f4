"""A review of each player's own decisions in a finished hand: asked for by the player,
computed once in the computer players' worker processes, shown to that player only."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import pytest
from django.urls import reverse

from games import registry
from games.models import HandReview
from games.rules.computer import hooks
from games.rules.computer import review as review_module
from tests.games.test_replay import a_record, finished_table
from tests.games.test_table_words import notation_in, visible_text

# slow: each review searches whole hands
pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def wait_until_ready(hand, seat, seconds=60.0) -> HandReview:
    for _ in range(int(seconds / 0.1)):
        entry = HandReview.objects.filter(hand=hand, seat=seat).first()
        if entry and entry.status in (HandReview.Status.READY, HandReview.Status.FAILED):
            return entry
        time.sleep(0.1)
    raise AssertionError("the review was never ready")


@pytest.fixture
def computer_players_in_this_process(settings):
    settings.COMPUTER_WORKERS = 0
    settings.REVIEW_WORKERS = 0


def owner(django_user_model):
    return django_user_model.objects.create_user("host", "host@example.org", "pw-long-enough")


def review_url(table, number=1):
    return reverse("hand_review", args=[table.pk, number])


@pytest.mark.usefixtures("computer_players_in_this_process")
@pytest.mark.parametrize("game", registry.game_ids())
def test_a_player_reviews_their_own_decisions_in_plain_words(client, django_user_model, game):
    record = a_record(game)
    table = finished_table(owner(django_user_model), django_user_model, record)
    hand = table.hands.get()
    ana = django_user_model.objects.get(username="ana")
    client.force_login(ana)
    page = client.get(review_url(table))
    assert "Review my play" in page.content.decode()
    assert client.post(review_url(table)).status_code == 302
    entry = wait_until_ready(hand, 0)
    assert entry.status == HandReview.Status.READY
    mine = [i for i, a in enumerate(record["actions"]) if a["seat"] == 0]
    assert {m["index"] for m in entry.result["moments"]} <= set(mine)  # her decisions only
    assert entry.result["moments"], "a whole hand without one choice"
    text = visible_text(client.get(review_url(table)).content.decode())
    assert "you chose" in text
    assert not notation_in(text), notation_in(text)
    # the contract's double-dummy result, in the games whose review gives one (Bid Whist and
    # Solo Whist: settled or said not to be)
    said = "With every card seen" in text or "could not be worked out in time" in text
    assert said == hooks.of(game).DOUBLE_DUMMY, text


@pytest.mark.usefixtures("computer_players_in_this_process")
def test_a_review_is_computed_once_and_shown_to_its_player_only(client, django_user_model,
                                                                monkeypatch):
    calls = []
    real = review_module.review

    def counted(record, seat, seed=0, **kwargs):
        calls.append(seat)
        return real(record, seat, seed, **kwargs)

    monkeypatch.setattr("games.rules.computer.review.review", counted)
    table = finished_table(owner(django_user_model), django_user_model, a_record("bid_whist"))
    hand = table.hands.get()
    ana, bob = (django_user_model.objects.get(username=n) for n in ("ana", "bob"))
    client.force_login(ana)
    client.post(review_url(table))
    wait_until_ready(hand, 0)
    client.post(review_url(table))  # asked again: the stored review answers
    client.get(review_url(table))
    assert calls == [0]
    client.force_login(bob)  # Bob sees no word of Ana's review: only his own, once asked for
    page = client.get(review_url(table))
    assert page.status_code == 200 and "you chose" not in page.content.decode()
    outsider = django_user_model.objects.create_user("olga", "olga@example.org", "pw-long-enough")
    client.force_login(outsider)
    assert client.get(review_url(table)).status_code == 403
    assert client.post(review_url(table)).status_code == 403
    assert HandReview.objects.filter(hand=hand).count() == 1
    client.logout()
    assert client.get(review_url(table)).status_code == 403


@pytest.mark.usefixtures("computer_players_in_this_process")
def test_the_contracts_result_is_searched_for_once_a_hand(client, django_user_model,
                                                         monkeypatch):
    """Every seat's review gives the same double-dummy result: once one review settled it,
    the next seat's review takes it from there instead of searching for seconds again."""
    searched = []
    settled = {"settled": True, "declarers": [0, 2], "from_trick": 1, "tricks": 9, "made": 8,
               "all_played": True, "of": 12, "wants_tricks": True}

    def search_once(record, seconds=6.0):
        searched.append(record)
        return settled

    monkeypatch.setattr("games.rules.computer.review.contract_double_dummy", search_once)
    table = finished_table(owner(django_user_model), django_user_model, a_record("bid_whist"))
    hand = table.hands.get()
    for seat, name in enumerate(("ana", "bob")):
        client.force_login(django_user_model.objects.get(username=name))
        client.post(review_url(table))
        assert wait_until_ready(hand, seat).result["double_dummy"] == settled
        text = visible_text(client.get(review_url(table)).content.decode())
        assert "would have taken 9 of the 12 tricks. It took 8." in text
    assert len(searched) == 1


def test_the_review_is_computed_in_a_worker_process_not_the_server(client, django_user_model,
                                                                   monkeypatch, settings):
    """The server's own process must never search: reviewing here fails the test, and the
    review still comes back ready, from the worker pool."""
    from games import computer_runner

    settings.REVIEW_WORKERS = 1

    def not_here(*args, **kwargs):
        raise AssertionError("a review was computed in the process that serves the pages")

    monkeypatch.setattr("games.reviews._compute_here", not_here)
    # the search in this process's copy of the modules only: the workers import their own
    monkeypatch.setattr("games.rules.computer.search.card_values", not_here)
    monkeypatch.setattr("games.rules.computer.review.choose_action", not_here)
    table = finished_table(owner(django_user_model), django_user_model, a_record("solo_whist"))
    client.force_login(django_user_model.objects.get(username="ana"))
    try:
        client.post(review_url(table))
        entry = wait_until_ready(table.hands.get(), 0)
    finally:
        computer_runner.shutdown()
    assert entry.status == HandReview.Status.READY, entry.status
    assert "moments" in entry.result


@pytest.mark.usefixtures("computer_players_in_this_process")
def test_the_replay_marks_a_costly_moment_of_the_players_review(client, django_user_model):
    record = a_record("bid_whist")
    table = finished_table(owner(django_user_model), django_user_model, record)
    hand = table.hands.get()
    card = next(i for i, a in enumerate(record["actions"])
                if a["seat"] == 0 and a["action"].startswith("play "))
    HandReview.objects.create(hand=hand, seat=0, status=HandReview.Status.READY, result={
        "seat": 0, "level": "strong", "moments": [
            {"index": card, "phase": "play", "played": record["actions"][card]["action"],
             "suggested": "play BJ", "cost": 0.8, "costly": True}]})
    client.force_login(django_user_model.objects.get(username="ana"))
    review = visible_text(client.get(review_url(table)).content.decode())
    assert "Costly:" in review and "0.8 points" in review
    step = card + 1 + (1 if record.get("kitty") else 0)  # the deal, then the kitty taken
    replay = visible_text(client.get(
        reverse("hand_replay", args=[table.pk, 1]) + f"?step={step}").content.decode())
    assert "Your review:" in replay and "big joker" in replay.lower()
    client.force_login(django_user_model.objects.get(username="bob"))
    other = client.get(reverse("hand_replay", args=[table.pk, 1]) + f"?step={step}")
    assert "Your review:" not in other.content.decode()


@pytest.mark.usefixtures("computer_players_act_at_once")
def test_the_last_hands_result_offers_its_players_their_review(client, django_user_model):
    """At the table, the panel of the last hand's result links each player to their review;
    a watcher gets no such link."""
    from games import tables

    host = owner(django_user_model)
    table = tables.create_table(host, "solo_whist", {})
    tables.take_seat(table.pk, host, 0)
    for position in (1, 2, 3):
        tables.add_computer_player(table.pk, host, position)
    table.refresh_from_db()
    while not table.hands.exists():  # the computers answer at once here
        state = tables.current_state(table)
        tables.play(table.pk, host, state.legal_actions()[0], table.version)
        table.refresh_from_db()
    client.force_login(host)
    assert "Review my play" in client.get(reverse("table", args=[table.pk])).content.decode()
    client.force_login(django_user_model.objects.create_user("watcher", "w@example.org",
                                                             "pw-long-enough"))
    assert "Review my play" not in client.get(
        reverse("table", args=[table.pk])).content.decode()


@pytest.mark.usefixtures("computer_players_in_this_process")
def test_a_review_lost_with_its_process_can_be_asked_for_again(client, django_user_model):
    from datetime import timedelta

    from django.utils import timezone

    table = finished_table(owner(django_user_model), django_user_model, a_record("solo_whist"))
    hand = table.hands.get()
    HandReview.objects.create(hand=hand, seat=0, status=HandReview.Status.WORKING,
                              started_at=timezone.now() - timedelta(hours=1))
    client.force_login(django_user_model.objects.get(username="ana"))
    assert "Try again" in client.get(review_url(table)).content.decode()
    client.post(review_url(table))
    assert wait_until_ready(hand, 0).status == HandReview.Status.READY


# The queue: one person asking for many reviews neither starves anyone else nor loses them.

@pytest.fixture
def held_reviews(settings, monkeypatch):
    """Reviews taken one at a time (one worker, a thread here), each held until the test
    opens the gate; ``taken``: the reviews in the order the worker took them."""
    from games import reviews

    settings.COMPUTER_WORKERS = 0
    settings.REVIEW_WORKERS = 0
    gate = threading.Event()
    taken = []
    computed = []

    def quick(record, seat, double_dummy=None):
        gate.wait(30)
        computed.append(seat)
        return {"seat": seat, "level": "strong", "moments": [], "double_dummy": None}

    real = reviews._compute_here

    def in_order(claim, *args):
        taken.append(claim.review_id)
        real(claim, *args)

    monkeypatch.setattr(reviews, "review_or_error", quick)
    monkeypatch.setattr(reviews, "_compute_here", in_order)
    yield SimpleNamespace(gate=gate, taken=taken, computed=computed)
    gate.set()
    for _ in range(100):  # the worker free again before the next test
        if reviews._taken_here == 0:
            break
        time.sleep(0.05)


def tables_of(django_user_model, count, game="bid_whist"):
    """``count`` finished tables, each with one hand, held by Ana, Bob, Cy and Dee."""
    host = django_user_model.objects.filter(username="host").first() or owner(django_user_model)
    record = a_record(game)
    return [finished_table(host, django_user_model, record) for _ in range(count)]


def person(django_user_model, name):
    return django_user_model.objects.get(username=name)


def review_of(table, seat):
    return HandReview.objects.filter(hand=table.hands.get(), seat=seat).first()


def message_text(response) -> str:
    return " ".join(str(m) for m in response.context["messages"]) if response.context else ""


def test_one_person_has_three_reviews_on_the_way_at_most(client, django_user_model,
                                                         held_reviews):
    many = tables_of(django_user_model, 5)
    client.force_login(person(django_user_model, "ana"))
    for table in many[:3]:
        client.post(review_url(table))
    page = client.post(review_url(many[3]), follow=True)
    text = visible_text(page.content.decode())
    assert "You already have 3 reviews on the way" in text, text
    assert page.status_code == 200 and "Review my play" in text  # the button, not an error
    assert review_of(many[3], 0) is None  # nothing stored for the refused one
    assert HandReview.objects.count() == 3
    held_reviews.gate.set()  # once they are ready, she may ask again
    for table in many[:3]:
        wait_until_ready(table.hands.get(), 0)
    client.post(review_url(many[3]))
    assert wait_until_ready(many[3].hands.get(), 0).status == HandReview.Status.READY


def test_another_persons_review_is_not_starved_by_one_who_asks_for_many(
        client, django_user_model, held_reviews):
    """Ana asks for her three reviews first; Bob's one, asked for after, is the next one the
    worker takes (each person's first waiting review before anyone's second), and his page
    says so."""
    many = tables_of(django_user_model, 3)
    client.force_login(person(django_user_model, "ana"))
    for table in many:
        client.post(review_url(table))
    client.force_login(person(django_user_model, "bob"))
    client.post(review_url(many[0]))
    text = visible_text(client.get(review_url(many[0])).content.decode())
    assert "Your review is next" in text, text
    held_reviews.gate.set()
    wait_until_ready(many[0].hands.get(), 1)
    for table in many:
        wait_until_ready(table.hands.get(), 0)
    anas = [review_of(table, 0).pk for table in many]
    assert held_reviews.taken == [anas[0], review_of(many[0], 1).pk, anas[1], anas[2]]


def test_a_full_queue_says_to_try_again_in_a_minute_in_the_readers_language(
        client, django_user_model, held_reviews, settings):
    settings.REVIEW_QUEUE_LIMIT = 2
    (table,) = tables_of(django_user_model, 1)
    for name in ("ana", "bob", "cy"):  # Ana's is being prepared, Bob's and Cy's wait
        client.force_login(person(django_user_model, name))
        client.post(review_url(table))
    client.force_login(person(django_user_model, "dee"))
    page = client.post(review_url(table), follow=True)
    text = visible_text(page.content.decode())
    assert page.status_code == 200
    assert "busy with other players' reviews just now. Please try again in a minute." in text
    assert "Review my play" in text and review_of(table, 3) is None
    french = client.post(review_url(table), follow=True, HTTP_ACCEPT_LANGUAGE="fr")
    assert "Veuillez réessayer dans une minute" in visible_text(french.content.decode())


def test_a_review_waiting_in_the_queue_is_shown_waiting_with_its_place_never_lost(
        client, django_user_model, held_reviews):
    """Time spent waiting for a worker does not count as lost: a review asked for an hour ago
    and still waiting says so, with the reviews before it, and is prepared in its turn."""
    from datetime import timedelta

    from django.utils import timezone

    many = tables_of(django_user_model, 3)
    client.force_login(person(django_user_model, "bob"))
    client.post(review_url(many[0]))  # Bob's keeps the worker busy
    client.force_login(person(django_user_model, "cy"))
    client.post(review_url(many[0]))
    ana = person(django_user_model, "ana")
    long_ago = timezone.now() - timedelta(hours=1)
    HandReview.objects.filter(hand=many[0].hands.get(), seat=2).update(requested_at=long_ago)
    HandReview.objects.create(hand=many[1].hands.get(), seat=0, requested_by=ana,
                              requested_at=long_ago + timedelta(seconds=1))
    client.force_login(ana)
    text = visible_text(client.get(review_url(many[1])).content.decode())
    assert "waiting for a free computer player: 1 review comes before it" in text, text
    assert "could not be prepared" not in text and "Try again" not in text
    held_reviews.gate.set()
    assert wait_until_ready(many[1].hands.get(), 0).status == HandReview.Status.READY


def test_a_review_is_handed_to_the_workers_exactly_once(client, django_user_model,
                                                        held_reviews):
    """Asked for again, polled while it waits, and looked at by several processes at once:
    the review is computed once."""
    (table,) = tables_of(django_user_model, 1)
    client.force_login(person(django_user_model, "bob"))
    client.post(review_url(table))  # the worker is busy with Bob's
    client.force_login(person(django_user_model, "ana"))
    for _ in range(3):
        client.post(review_url(table))
        client.get(review_url(table) + "?partial=1")
    assert review_of(table, 0).status == HandReview.Status.QUEUED
    held_reviews.gate.set()
    assert wait_until_ready(table.hands.get(), 0).status == HandReview.Status.READY
    assert sorted(held_reviews.computed) == [0, 1]
    # several processes (each its own connection) claim the same waiting row at once
    from games import reviews

    (other,) = tables_of(django_user_model, 1)
    HandReview.objects.create(hand=other.hands.get(), seat=0)
    start, claims = threading.Barrier(6), []

    def claim():
        start.wait()
        try:
            claims.append(reviews._claim_next())
        finally:
            from django.db import connection
            connection.close()

    threads = [threading.Thread(target=claim) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len([c for c in claims if c is not None]) == 1, claims
