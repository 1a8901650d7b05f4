"""A deal number is taken once per table (the entry methods' row lock already ensured it; the
constraint makes it hold whatever writes).  Should a table hold two deals of one number, its
deals are first renumbered 1, 2, 3... in their order: every deal is kept."""

from django.db import migrations, models
from django.db.models import Count


def renumber_duplicates(apps, schema_editor):
    Deal = apps.get_model("leagues", "Deal")
    tables = (Deal.objects.values("table_id", "number").annotate(n=Count("pk"))
              .filter(n__gt=1).values_list("table_id", flat=True).distinct())
    for table_id in set(tables):
        deals = list(Deal.objects.filter(table_id=table_id).order_by("number", "pk"))
        for deal in deals:  # out of the way first, so no two rows meet on a number
            deal.number += 10000
            deal.save(update_fields=["number"])
        for number, deal in enumerate(deals, start=1):
            deal.number = number
            deal.save(update_fields=["number"])


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0003_provisional_deals"),
    ]

    operations = [
        migrations.RunPython(renumber_duplicates, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="deal",
            constraint=models.UniqueConstraint(fields=("table", "number"),
                                               name="one_deal_per_number"),
        ),
    ]
