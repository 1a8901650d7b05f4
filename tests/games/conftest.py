import pytest


@pytest.fixture(autouse=True)
def bots_act_at_once(settings):
    settings.BOT_DELAY_SECONDS = 0
