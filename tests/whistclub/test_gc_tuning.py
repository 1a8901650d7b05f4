"""The collector settings of a serving process come from GC_THRESHOLDS, checked at start-up."""

import gc

import pytest
from django.core.exceptions import ImproperlyConfigured

from whistclub.gc_tuning import DEFAULT_THRESHOLDS, thresholds_from_env, tune_garbage_collector


def test_the_default_and_a_chosen_threshold(monkeypatch):
    monkeypatch.delenv("GC_THRESHOLDS", raising=False)
    assert thresholds_from_env() == DEFAULT_THRESHOLDS
    monkeypatch.setenv("GC_THRESHOLDS", "1000,10,10")
    assert thresholds_from_env() == (1000, 10, 10)
    monkeypatch.setenv("GC_THRESHOLDS", "default")
    assert thresholds_from_env() is None


@pytest.mark.parametrize("raw", ["fast", "1,2", "0,10,10", "1000,ten,10"])
def test_a_malformed_threshold_stops_start_up_naming_the_variable(monkeypatch, raw):
    monkeypatch.setenv("GC_THRESHOLDS", raw)
    with pytest.raises(ImproperlyConfigured, match="GC_THRESHOLDS"):
        thresholds_from_env()


def test_tuning_freezes_what_is_loaded_and_sets_the_thresholds(monkeypatch):
    before = gc.get_threshold()
    monkeypatch.setenv("GC_THRESHOLDS", "40000,15,90")
    try:
        tune_garbage_collector()
        assert gc.get_threshold() == (40000, 15, 90)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
