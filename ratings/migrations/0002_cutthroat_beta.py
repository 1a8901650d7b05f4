"""Cutthroat Bid Whist's ratings use beta 8 from now on (ratings/games/cutthroat_bid_whist.py):
every stored Cutthroat rating is made again with it, as ``manage.py rate --rebuild --game
cutthroat_bid_whist`` would, so that old and new updates are never mixed."""

from django.db import migrations

GAME = "cutthroat_bid_whist"


def rate_again(apps, schema_editor):
    # Only where Cutthroat ratings exist (a fresh database has none, and the rebuild below
    # reads the results through today's models, which a later migration may change).
    if not apps.get_model("ratings", "Rating").objects.filter(game=GAME).exists():
        return
    from ratings.store import refresh, scopes_and_games

    for scope, game in scopes_and_games(None, GAME):
        refresh(scope, game)


class Migration(migrations.Migration):

    dependencies = [("ratings", "0001_initial")]

    operations = [migrations.RunPython(rate_again, migrations.RunPython.noop)]
