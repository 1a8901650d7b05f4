"""Members in bulk: a pasted list or a CSV file, a preview with the duplicates flagged, nothing
added before the organiser confirms."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from leagues.models import Member

from .test_security import fingerprint

pytestmark = pytest.mark.django_db


def bulk_url(club):
    return f"/clubs/{club.slug}/members/bulk/"


def test_a_pasted_list_is_previewed_with_duplicates_flagged_and_nothing_added(as_organiser,
                                                                            club):
    before = fingerprint()
    response = as_organiser.post(bulk_url(club), {"names": "Ann\nmike\n\nBob, bob@example.org\n"
                                                           "ann\nCarl, not-an-address\n"})
    rows = [(r["name"], r["problem"]) for r in response.context["rows"]]
    assert rows == [("Ann", None), ("mike", "Already a member."), ("Bob", None),
                    ("ann", "Twice in the list: added once."), ("Carl", None)]
    page = response.content.decode()
    assert "3 members will be added. Nothing is added until you confirm." in page
    assert fingerprint() == before


def test_a_bad_address_keeps_the_person_and_the_list_stays_to_correct(as_organiser, club):
    pasted = "Ann\nCarl, not-an-address\nDora, dora@example.org"
    page = as_organiser.post(bulk_url(club), {"names": pasted}).content.decode()
    assert ("“not-an-address” is not an email address: Carl will be added without one. "
            "Correct it in the list below and check again") in page
    assert "3 members will be added." in page
    # the list is still in the form, as pasted, to correct and check again
    assert f">\n{pasted}</textarea>" in page and "Check the list again" in page
    assert "Start again" not in page
    corrected = pasted.replace("not-an-address", "carl@example.org")
    response = as_organiser.post(bulk_url(club), {"names": corrected})
    assert [(r["name"], r["email"], r["note"]) for r in response.context["rows"]] == [
        ("Ann", "", None), ("Carl", "carl@example.org", None),
        ("Dora", "dora@example.org", None)]
    # confirming the first preview adds Carl without the address, and everyone else
    as_organiser.post(bulk_url(club), {"confirm": "1", "name": ["Ann", "Carl", "Dora"],
                                       "email": ["", "", "dora@example.org"]})
    assert dict(club.members.filter(name__in=["Ann", "Carl", "Dora"])
                .values_list("name", "email")) == {"Ann": "", "Carl": "",
                                                   "Dora": "dora@example.org"}


def test_confirming_the_preview_adds_the_members_once(as_organiser, club):
    data = {"confirm": "1", "name": ["Ann", "Bob"], "email": ["", "bob@example.org"]}
    response = as_organiser.post(bulk_url(club), data, follow=True)
    assert "2 members added: Ann, Bob." in response.content.decode()
    assert Member.objects.get(club=club, name="Bob").email == "bob@example.org"
    response = as_organiser.post(bulk_url(club), data, follow=True)  # sent twice
    assert "Nobody was added" in response.content.decode()
    assert club.members.filter(name__in=["Ann", "Bob"]).count() == 2
    rows = as_organiser.get(f"/clubs/{club.slug}/changes/").context["rows"]
    assert rows[0]["headline"] == "2 members added by olga"
    assert rows[0]["details"] == ["Ann, Bob"]


def test_a_csv_file_is_read_as_name_and_email(as_organiser, club):
    upload = SimpleUploadedFile("members.csv", "Zoë,zoe@example.org\r\nYann\r\n".encode(),
                                content_type="text/csv")
    response = as_organiser.post(bulk_url(club), {"file": upload})
    assert [(r["name"], r["email"], r["problem"]) for r in response.context["rows"]] == [
        ("Zoë", "zoe@example.org", None), ("Yann", "", None)]


@pytest.mark.parametrize("data, message", [
    ({"names": ""}, "Paste at least one name, or choose a CSV file."),
    ({"names": "   \n \n"}, "Paste at least one name, or choose a CSV file."),
    ({"names": "x\n" * 301}, "At most 300 names at a time, please."),
    ({"file": SimpleUploadedFile("a.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")},
     "This file is not a CSV text file."),
    ({"file": SimpleUploadedFile("a.csv", b"a" * 100_001)}, "The file is too large"),
])
def test_bad_input_gets_a_plain_message_and_changes_nothing(as_organiser, club, data, message):
    before = fingerprint()
    response = as_organiser.post(bulk_url(club), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert fingerprint() == before


def test_a_name_too_long_or_with_control_characters_is_flagged(as_organiser, club):
    response = as_organiser.post(bulk_url(club), {"names": "x" * 61 + "\nA\x07B\n"})
    assert [r["problem"] for r in response.context["rows"]] == [
        "The name is too long: at most 60 characters.",
        "This line has characters that cannot be kept."]
    before = fingerprint()
    response = as_organiser.post(bulk_url(club), {"confirm": "1", "name": ["A\x00B"],
                                                  "email": [""]}, follow=True)
    assert fingerprint() == before


def test_only_organisers_add_members_in_bulk(client, club, member_user, outsider_user):
    before = fingerprint()
    data = {"confirm": "1", "name": ["Ann"], "email": [""]}
    client.force_login(member_user)
    assert client.get(bulk_url(club)).status_code == 403
    assert client.post(bulk_url(club), data).status_code == 403
    client.force_login(outsider_user)
    assert client.post(bulk_url(club), data).status_code == 404
    assert fingerprint() == before
