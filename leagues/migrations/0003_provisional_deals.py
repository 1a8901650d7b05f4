"""Provisional entries are kept per deal (and for totals) with the member who entered them,
instead of one "provisional by" per table that the latest entry overwrote.

Existing provisional tables stay provisional: each of their deals entered by a player (not an
organiser) becomes a provisional deal of that player; a deal whose author cannot be told is
attributed to the table's former "provisional by" member.  Provisional totals keep that member
as their author.  Nothing that waited for a confirmation becomes final here."""

import django.db.models.deletion
from django.db import migrations, models


def forwards(apps, schema_editor):
    EveningTable = apps.get_model("leagues", "EveningTable")
    Deal = apps.get_model("leagues", "Deal")
    Member = apps.get_model("leagues", "Member")
    for table in (EveningTable.objects.filter(provisional_by__isnull=False)
                  .select_related("evening__season__league", "provisional_by")):
        table.provisional = True
        if table.entry == "totals":
            table.totals_entered_by = table.provisional_by
            table.save(update_fields=["provisional", "totals_entered_by"])
            continue
        club_id = table.evening.season.league.club_id
        members = {m.user_id: m for m in Member.objects.filter(club_id=club_id,
                                                               user__isnull=False)}
        any_provisional = False
        for deal in Deal.objects.filter(table=table):
            author = members.get(deal.entered_by_id) or table.provisional_by
            deal.entered_by_member = author
            deal.provisional = author.role != "organiser"
            any_provisional = any_provisional or deal.provisional
            deal.save(update_fields=["entered_by_member", "provisional"])
        if not any_provisional:
            # Every deal was an organiser's: the table waited only for the latest entry's
            # author, who is unknown now; keep it waiting, for an organiser to confirm.
            for deal in Deal.objects.filter(table=table):
                deal.provisional = True
                deal.save(update_fields=["provisional"])
        table.save(update_fields=["provisional"])


def backwards(apps, schema_editor):
    EveningTable = apps.get_model("leagues", "EveningTable")
    Deal = apps.get_model("leagues", "Deal")
    for table in EveningTable.objects.filter(provisional=True):
        if table.entry == "totals":
            table.provisional_by = table.totals_entered_by
        else:
            deal = (Deal.objects.filter(table=table, provisional=True)
                    .exclude(entered_by_member=None).order_by("-number").first())
            table.provisional_by = deal.entered_by_member if deal else None
        table.save(update_fields=["provisional_by"])


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0002_online_fixtures"),
    ]

    operations = [
        migrations.AddField(
            model_name="eveningtable",
            name="provisional",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="eveningtable",
            name="totals_entered_by",
            field=models.ForeignKey(blank=True, null=True,
                                    on_delete=django.db.models.deletion.SET_NULL,
                                    related_name="+", to="leagues.member"),
        ),
        migrations.AddField(
            model_name="deal",
            name="entered_by_member",
            field=models.ForeignKey(blank=True, null=True,
                                    on_delete=django.db.models.deletion.SET_NULL,
                                    related_name="+", to="leagues.member"),
        ),
        migrations.AddField(
            model_name="deal",
            name="provisional",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField(
            model_name="eveningtable",
            name="provisional_by",
        ),
    ]
