"""Every change to the models has its migration (a game added to the registry changes the
choices of ``Table.game`` and ``League.game``): a fresh database gets exactly the models."""

import io

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_model_change_is_missing_its_migration():
    out = io.StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exc:  # --check exits 1 when a migration is missing
        pytest.fail(f"a migration is missing (exit {exc.code}):\n{out.getvalue()}")
