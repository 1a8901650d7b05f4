"""What another app says about an event, without events importing it: an app that ties events
to something of its own (a club's events: ``club_events``) registers a policy when it starts
(its ``AppConfig.ready``), and events asks every policy:

- ``may_see(event, user)``: whether ``user`` (maybe anonymous) sees the event's pages at all
  (no: a 404, as for an event that does not exist);
- ``registration_refusal(event, user)``: why ``user`` may not register, in words, or None;
- ``notes(event, user)``: lines for the top of the event's page, each its words and a link
  (or an empty link);
- ``registration_changed(event, user, registered)``: ``user`` registered (True) or withdrew
  (False), in the transaction that changed it (a club's evening played as the event marks them
  as coming or not);
- ``fixed_pairs(event)``: an event whose partners are fixed pairs
  (``Event.partners_are_fixed_pairs``): its pairs, each two user ids (a club's evening:
  the season's registered pairs), or None when the policy has none for it;
- ``finished(event)``: the event is over (its last round, or the arena's time), in the
  transaction that ends it (a club's evening played as the event takes its results).

With no policy registered (events alone), every event is open to everyone."""

from __future__ import annotations

from typing import NamedTuple, Protocol


class Note(NamedTuple):
    words: str
    link: str = ""


class Policy(Protocol):
    def may_see(self, event, user) -> bool: ...

    def registration_refusal(self, event, user) -> str | None: ...

    def notes(self, event, user) -> list[Note]: ...

    def registration_changed(self, event, user, registered: bool) -> None: ...

    def fixed_pairs(self, event) -> list[tuple[int, int]] | None: ...

    def finished(self, event) -> None: ...


_policies: list[Policy] = []


def register(policy: Policy) -> None:
    if policy not in _policies:
        _policies.append(policy)


def may_see(event, user) -> bool:
    return all(policy.may_see(event, user) for policy in _policies)


def open_to_everyone(event) -> bool:
    """Whether anyone at all, signed in or not, sees the event: only then do its tables'
    replays become anyone's once their deals are over (a members-only event's stay with their
    players)."""
    from django.contrib.auth.models import AnonymousUser

    return may_see(event, AnonymousUser())


def registration_refusal(event, user) -> str | None:
    for policy in _policies:
        refusal = policy.registration_refusal(event, user)
        if refusal:
            return refusal
    return None


def notes(event, user) -> list[Note]:
    return [note for policy in _policies for note in policy.notes(event, user)]


def registration_changed(event, user, registered: bool) -> None:
    for policy in _policies:
        policy.registration_changed(event, user, registered)


def fixed_pairs(event) -> list[tuple[int, int]]:
    """The pairs of an event whose partners are fixed pairs, each two user ids; none without
    a policy that gives them (then nobody is seated: a pair is both its members)."""
    for policy in _policies:
        pairs = policy.fixed_pairs(event)
        if pairs is not None:
            return pairs
    return []


def finished(event) -> None:
    for policy in _policies:
        policy.finished(event)
