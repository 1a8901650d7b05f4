"""The benches: measurements of the site and of its computer players, run by hand.

Each ``bench/<name>.py`` runs as ``.venv/bin/python bench/<name>.py`` or
``.venv/bin/python -m bench.<name>``.  Nothing under ``games/``, ``leagues/`` or ``ratings/``
imports from here: the benches import the site, never the other way round.
"""
