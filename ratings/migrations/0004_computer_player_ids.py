from django.db import migrations

OLD, NEW = "bot:", "computer:"


def rename(apps, old, new):
    """A computer player's rated identity is ``computer:<level>``: its current rating, its
    days and the players each of them met."""
    for name in ("Rating", "RatingPoint"):
        model = apps.get_model("ratings", name)
        for row in model.objects.all().iterator():
            player = new + row.player[len(old):] if row.player.startswith(old) else row.player
            met = [new + p[len(old):] if isinstance(p, str) and p.startswith(old) else p
                   for p in row.met]
            if player != row.player or met != row.met:
                row.player, row.met = player, met
                row.save(update_fields=["player", "met"])


def forwards(apps, schema_editor):
    rename(apps, OLD, NEW)


def backwards(apps, schema_editor):
    rename(apps, NEW, OLD)


class Migration(migrations.Migration):

    dependencies = [("ratings", "0003_met_people_and_last_key")]

    operations = [migrations.RunPython(forwards, backwards)]
