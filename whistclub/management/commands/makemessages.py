"""Django's makemessages, also collecting the engine's messages.

``games.rules`` cannot import Django, so its player-facing messages are marked with the no-op
``N_`` and translated on the Django side (see games/rules/errors.py); the second argument of
``rule(default, help, ...)`` is each house rule's help text, shown on the create-table form.
Its ``label``, ``choice_labels`` and ``entry_labels`` are marked with ``N_`` where they are
written (``label=N_("When all four pass")``), so ``--keyword=N_`` collects them.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_", "--keyword=rule:2"]
