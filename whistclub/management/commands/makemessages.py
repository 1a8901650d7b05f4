"""Django's makemessages, also collecting the engine's messages marked with ``N_()``.

``games.rules`` cannot import Django, so its player-facing messages are marked with the no-op
``N_`` and translated on the Django side (see games/rules/base.py).
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]
