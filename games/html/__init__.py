"""The live table's HTML, built in Python rather than by the template engine: the fragment is
rendered for every seat at every change of every table (docs/architecture.md, "The table page,
phone first").  Everything is put together as markupsafe's ``Markup``: a value is escaped as it
goes in unless it is ``Markup`` already, so no insertion can be left unescaped
(``games.html.markup``).  The table's template tags in ``games/templatetags`` only call these."""
