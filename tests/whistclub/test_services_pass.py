"""The PostgreSQL + Redis pass of `make test` fails loudly instead of skipping."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # each test runs pytest in a process of its own

ROOT = Path(__file__).resolve().parents[2]


def run_pytest_with(**environ):
    env = {**os.environ, "WHISTCLUB_REQUIRE_SERVICES": "1", **environ}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "tests/whistclub/test_healthz.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )


def test_an_unreachable_redis_fails_the_services_pass():
    result = run_pytest_with(DATABASE_URL="postgres://postgres@127.0.0.1:5432/whistclub",
                             REDIS_URL="redis://127.0.0.1:1/0")
    assert result.returncode == 3
    assert "Redis unreachable" in result.stdout + result.stderr


def test_an_unreachable_postgres_fails_the_services_pass():
    result = run_pytest_with(DATABASE_URL="postgres://postgres@127.0.0.1:1/whistclub",
                             REDIS_URL="redis://127.0.0.1:6379/0")
    assert result.returncode == 3
    assert "PostgreSQL unreachable" in result.stdout + result.stderr


def test_the_services_pass_refuses_sqlite():
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(WHISTCLUB_REQUIRE_SERVICES="1", REDIS_URL="redis://127.0.0.1:6379/0")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "tests/whistclub/test_healthz.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 3
    assert "DATABASE_URL does not point at PostgreSQL" in result.stdout + result.stderr
