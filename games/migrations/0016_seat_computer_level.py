from django.db import migrations


class Migration(migrations.Migration):
    """One term in the code: a seat's computer player is a "computer player", never a "bot"."""

    dependencies = [("games", "0015_chat_lines")]

    operations = [
        migrations.RenameField(model_name="seat", old_name="bot_level", new_name="computer_level"),
    ]
