from django.conf import settings
from django.utils import translation


class PreferredLanguageMiddleware:
    """A signed-in person sees the site in the language saved on their profile.

    Runs after LocaleMiddleware (which follows the cookie and the browser) and after
    authentication; an empty preference leaves LocaleMiddleware's choice alone.
    """

    def __init__(self, get_response):
        self.get_response = get_response
        self.known = dict(settings.LANGUAGES)

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = getattr(getattr(user, "profile", None), "language", "")
            if language in self.known:
                translation.activate(language)
                request.LANGUAGE_CODE = language
        return self.get_response(request)
