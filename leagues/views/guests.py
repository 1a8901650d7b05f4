"""Guests and substitutes: a walk-in guest added at the door of an evening, a guest made a
member, and a substitute taking a seat of a table from a deal on (or taken back)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from leagues import access as acl
from leagues import guests
from leagues.forms import GuestForm, SubstituteForm, first_error
from leagues.models import EntryError
from leagues.views import entry
from leagues.views.common import changes_a_table, made


@login_required
@require_POST
def guest_add(request, slug, evening_id):
    access, evening = acl.get_evening(request, slug, evening_id, acl.ORGANISER)
    form = GuestForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect(evening)
    # A league of registered pairs draws pairs: a guest is in its draw once in a pair
    # (draw.not_drawn); where partners are drawn each round, a guest is drawn as anyone.
    in_pairs = evening.season.league.registers_pairs
    made(request, lambda: guests.add_guest(evening, form.cleaned_data["name"], request.user),
         lambda guest: (_("%(name)s plays this evening as a guest: they are marked coming, and "
                          "are drawn once registered in a pair of the season.") if in_pairs
                        else _("%(name)s plays this evening as a guest: they are marked coming "
                               "and will be in the draw.")) % {"name": guest.name})
    return redirect(evening)


@login_required
@require_POST
def guest_make_member(request, slug, member_id):
    access, member = acl.get_member(request, slug, member_id, acl.ORGANISER)
    made(request, lambda: guests.make_member(member, request.user),
         _("%(name)s is now a member of the club, with their results.") % {"name": member.name})
    return redirect(member)


@login_required
@require_POST
@changes_a_table(acl.get_table, acl.ORGANISER)
def substitute_add(request, access, table):
    form = SubstituteForm(table, guests.free_to_substitute(table, access.club), request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            guests.add_substitute(table, data["seat"], data["member"], data["from_deal"],
                                  request.user)
        except EntryError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _(
                "%(name)s plays the seat of %(seat)s from deal %(number)s; the deals before "
                "stay with whoever played them.") % {
                "name": data["member"].name,
                "seat": dict(form.fields["seat"].choices)[data["seat"]],
                "number": data["from_deal"]})
            return redirect(table)
    if not entry.offers_substitutes(access, table):  # the page has no form to say it by
        messages.error(request, first_error(form))
        return redirect(table)
    # Refused: the table's page again with the form open, as typed, what is wrong beside it
    # (a redirect lost the values and said it at the top, far from the folded form).
    return entry.render_table(request, access, table, substitute_form=form)


@login_required
@require_POST
@changes_a_table(acl.get_table, acl.ORGANISER)
def substitute_remove(request, access, table, substitute_id):
    made(request, lambda: guests.remove_substitute(table, substitute_id, request.user),
         _("The substitute is taken back: the seat's deals are again those of whoever played "
           "before."))
    return redirect(table)
