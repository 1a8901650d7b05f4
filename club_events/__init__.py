"""A club's events: an online event (``events``) organised for a club, open to everyone or
for its members only, listed on the club's events page.  Stands on both ``leagues`` and
``events`` (neither imports the other); events hears of it through ``events.policies``."""
