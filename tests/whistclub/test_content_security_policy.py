"""The Content-Security-Policy header, and templates that keep to it (the browser test is
tests/e2e/test_csp.py)."""

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def directives(response) -> dict[str, str]:
    header = response.headers["Content-Security-Policy"]
    return {name: value for name, _, value in
            (part.strip().partition(" ") for part in header.split(";") if part.strip())}


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/tables/", "/clubs/"])
def test_pages_carry_a_policy_that_allows_only_the_site_itself(client, path):
    policy = directives(client.get(path))
    assert policy["default-src"] == "'self'"
    assert policy["script-src"] == "'self'"
    assert policy["style-src"] == "'self'"
    assert policy["connect-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'"
    assert policy["object-src"] == "'none'"


INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "an inline <script>"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "an on*= event attribute"),
    (re.compile(r"\shx-on", re.I), "an hx-on attribute"),
    (re.compile(r"\sstyle\s*=", re.I), "a style= attribute"),
    (re.compile(r"<style", re.I), "an inline <style>"),
    (re.compile(r"javascript:", re.I), "a javascript: URL"),
]


@pytest.mark.parametrize("template", sorted(p.relative_to(TEMPLATES).as_posix()
                                            for p in TEMPLATES.rglob("*.html")))
def test_no_template_needs_unsafe_inline(template):
    text = (TEMPLATES / template).read_text()
    for pattern, what in INLINE:
        match = pattern.search(text)
        assert match is None, f"{template} has {what}: {match.group(0)!r} (move it to static/)"
