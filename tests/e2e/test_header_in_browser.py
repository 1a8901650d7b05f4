"""The site's header on a phone: whatever the language and the display name, no page is wider
than the screen (a one-word name and "Se déconnecter" pushed French and Dutch pages to 426 px
on a 390 px phone)."""

import uuid

import pytest

from tests.e2e.conftest import sign_up

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("language", ["fr", "nl", "en", "pt"])
def test_no_page_is_wider_than_a_phone_with_a_long_name(browser, live_server_url, language):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, locale="en-GB")
    page = context.new_page()
    sign_up(page, live_server_url, "bartholomew" + uuid.uuid4().hex[:8])  # one long word
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server_url}])
    for path in ("/", "/tables/", "/tables/new/belgian_whist/", "/clubs/"):
        page.goto(live_server_url + path)
        assert page.locator("html").get_attribute("lang") == language
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{path} in {language} is {width} px wide on a 390 px phone"
    context.close()
