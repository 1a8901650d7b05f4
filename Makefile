# whistclub: `make run` and `make test` are all a newcomer needs (README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# The second test pass: PostgreSQL + Redis on their usual local ports (override if elsewhere).
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/whistclub
TEST_REDIS_URL ?= redis://127.0.0.1:6379/0
PO_FILES := $(wildcard locale/*/LC_MESSAGES/django.po)
MO_FILES := $(PO_FILES:.po=.mo)
# Each pass ends with its 15 slowest tests: where the minutes of `make test` go.
PYTEST_ARGS ?= --durations=15
# Test processes per pass (pytest-xdist; 0: one process, as for a debugger). A test file stays
# in one process, so a file's browser and servers start once.
TEST_WORKERS ?= 2
XDIST := -n $(TEST_WORKERS) --dist loadfile
# What `make test` adds to the embedded pass's environment (leaving out the browser tests).
EMBEDDED_ENV ?=

.PHONY: install run test typecheck test-embedded test-services test-quick lint messages clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

%.mo: %.po
	@command -v msgfmt >/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && apt-get install -y -qq gettext >/dev/null; \
	  else echo "msgfmt is missing: install gettext (apt-get install gettext)" >&2; exit 1; fi; }
	msgfmt --check-format -o $@ $<

install: $(STAMP) $(MO_FILES)
	@mkdir -p staticfiles  # STATIC_ROOT: whitenoise warns when it is missing

run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	@echo "Serving on http://$(HOST):$(PORT)/  (Ctrl-C to stop)"
	$(BIN)/daphne -b $(HOST) -p $(PORT) whistclub.asgi:application

# ruff and mypy first: a lint or type error stops the run before the minutes of the two passes.
# The browser tests run once, in the PostgreSQL + Redis pass (the stack a club's site runs on:
# marker browser, tests/conftest.py); `make test-embedded` alone runs them too.
test: install lint typecheck
	$(MAKE) test-embedded EMBEDDED_ENV=WHISTCLUB_LEAVE_OUT_BROWSER_TESTS=1
	$(MAKE) test-services

# Types: strict on the engines, gradual elsewhere ([tool.mypy] in pyproject.toml).
typecheck: install
	$(BIN)/mypy

test-embedded: install
	@echo "== Pass 1: SQLite + in-memory channel layer =="
	env -u DATABASE_URL -u REDIS_URL HYPOTHESIS_PROFILE=full $(EMBEDDED_ENV) \
	  $(BIN)/python -m pytest $(XDIST) $(PYTEST_ARGS)

# The engines' tests (marker engine) touch no service: pass 2 leaves them out (tests/conftest.py).
# Its property tests draw the quick profile's few examples: the embedded pass draws the many.
test-services: install
	@echo "== Pass 2: PostgreSQL + Redis =="
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) WHISTCLUB_REQUIRE_SERVICES=1 \
	  HYPOTHESIS_PROFILE=quick $(BIN)/python -m pytest $(XDIST) $(PYTEST_ARGS)

# A few minutes: no browser, server, process or load test (marker slow), and each property
# test draws a few examples (the quick Hypothesis profile, tests/conftest.py).
test-quick: install
	env -u DATABASE_URL -u REDIS_URL HYPOTHESIS_PROFILE=quick \
	  $(BIN)/python -m pytest -m "not slow" $(XDIST) $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .

messages: install
	$(BIN)/python manage.py makemessages --all --ignore=.venv --ignore=staticfiles
	$(MAKE) install

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache $(MO_FILES)
