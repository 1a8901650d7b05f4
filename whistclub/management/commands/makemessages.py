"""Django's makemessages, also collecting the engine's messages.

``games.rules`` cannot import Django, so its player-facing messages are marked with the no-op
``N_`` and translated on the Django side (see games/rules/base.py); the second argument of
``rule(default, help, ...)`` is each house rule's help text, shown on the create-table form.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_", "--keyword=rule:2"]
