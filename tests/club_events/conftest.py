from tests.events.conftest import computer_players_wait, make_people  # noqa: F401
from tests.leagues.conftest import *  # noqa: F403  (the three personas and the club)
