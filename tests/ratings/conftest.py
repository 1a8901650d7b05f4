from tests.leagues.conftest import *  # noqa: F403  (the three personas and the builders)
