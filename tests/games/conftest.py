"""Fixtures of the Django-side game tests (the pure engine tests below rules/ need none)."""

import pytest


@pytest.fixture
def bots_act_at_once(settings):
    settings.BOT_DELAY_SECONDS = 0
