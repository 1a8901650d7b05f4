"""Template comments that Django would print: ``{# ... #}`` is a one-line comment only, and one
spread over two lines is shown on the page as text."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def unclosed_comments(root: Path) -> list[str]:
    found = []
    for path in sorted((root / "templates").rglob("*.html")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.count("{#") != line.count("#}"):
                found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return found


def test_no_template_comment_spreads_over_two_lines():
    assert unclosed_comments(ROOT) == []


def test_the_check_sees_a_comment_over_two_lines(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "t.html").write_text("{# one #}\n{# two\n lines #}\n")
    assert unclosed_comments(tmp_path) == ["templates/t.html:2: {# two",
                                          "templates/t.html:3: lines #}"]


def test_the_home_page_shows_no_template_comment(client):
    assert "{#" not in client.get("/").content.decode()
