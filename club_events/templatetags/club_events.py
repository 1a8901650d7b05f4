"""The evening's page (a leagues template) says which event it is played as, or offers an
organiser to play it as one: leagues never import club_events, their templates load this."""

from django import template

from club_events import evenings
from club_events.models import ClubEvent
from events import policies

register = template.Library()


@register.inclusion_tag("club_events/_evening_event.html", takes_context=True)
def evening_event(context, evening, access):
    request = context.get("request")
    user = getattr(request, "user", None)
    link = ClubEvent.objects.filter(evening=evening).select_related("event").first()
    if link is not None and policies.may_see(link.event, user):
        counted, left_out = evenings.entered(link)
        return {"event": link.event, "finished": link.event.status == link.event.Status.FINISHED,
                "counted": counted, "left_out": left_out, "club": access.club,
                "evening": evening,
                # Before the start, the organiser may play it at its tables instead.
                "may_play_at_tables": (access.is_organiser and not evening.season.is_closed
                                       and link.event.status == link.event.Status.REGISTRATION)}
    if (link is None and access.is_organiser
            and evenings.refusal(access.club, evening) is None):
        return {"offer": True, "club": access.club, "evening": evening}
    return {}
