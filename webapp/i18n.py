"""The pages' languages (Flask-Babel): English, German, Dutch and Hebrew (right to left).

The language is the ``lang`` cookie when a player picked one (``/language/<code>``, linked at
the foot of every page), else the best match for the phone's ``Accept-Language``, else English.
Catalogs live in ``webapp/translations/<code>/LC_MESSAGES/messages.po`` with their compiled
``.mo`` beside them; ``babel.cfg`` at the top of the repository says where the strings are
(templates, Python, and the pages' JavaScript, which marks its strings ``t("...")`` and
``tn("...", "...", n)``). The README says how to update and compile them.

The JavaScript gets its strings from the page: ``base.html`` puts the translations of every
string in ``webapp/static/*.js`` into a JSON block (``js_catalog``); ``tn`` picks a plural's
form through ``Intl.PluralRules``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask, Response, make_response, redirect, request
from flask_babel import Babel, get_locale, get_translations

#: Language code -> its own name (what the switch shows).
LANGUAGES = {"en": "English", "de": "Deutsch", "nl": "Nederlands", "he": "עברית"}
RIGHT_TO_LEFT = {"he"}
DEFAULT = "en"
COOKIE = "lang"
COOKIE_MAX_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie

STATIC = Path(__file__).resolve().parent / "static"
#: gettext keywords of the pages' JavaScript (``babel.cfg`` names the same).
JS_KEYWORDS = {"t": None, "tn": (1, 2), "tx": None}


def select_locale() -> str:
    chosen = request.cookies.get(COOKIE, "")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES)) or DEFAULT


def language() -> str:
    return str(get_locale() or DEFAULT).split("_")[0]


def direction() -> str:
    return "rtl" if language() in RIGHT_TO_LEFT else "ltr"


@lru_cache(maxsize=1)
def js_messages() -> tuple[tuple, ...]:
    """Every string the pages' JavaScript marks for translation: ``(msgid,)`` or ``(singular,
    plural)``, read from the static files once."""
    from babel.messages.extract import extract_from_file

    found: dict[tuple, None] = {}
    for path in sorted(STATIC.glob("*.js")):
        for _lineno, message, _comments, _context in extract_from_file(
                "javascript", str(path), keywords=JS_KEYWORDS, options={}):
            key = tuple(message) if isinstance(message, (tuple, list)) else (message,)
            if all(key):
                found[key] = None
    return tuple(found)


def js_catalog() -> dict:
    """What the pages' JavaScript needs: the language and the translated strings. A plural is
    given as its form for each of the language's plural categories (``one``, ``two``,
    ``other``...), which the page picks with ``Intl.PluralRules``."""
    code = language()
    catalog = get_translations()  # unformatted: the page fills in the %(name)s itself
    messages: dict[str, object] = {}
    for key in js_messages():
        if len(key) == 1:
            messages[key[0]] = catalog.gettext(key[0])
        else:
            messages[key[0]] = {tag: catalog.ngettext(key[0], key[1], n) for tag, n in _samples(code)}
    return {"lang": code, "messages": messages}


@lru_cache(maxsize=None)
def _samples(code: str) -> tuple[tuple[str, int], ...]:
    """A number in each plural category of the language (CLDR, through Babel)."""
    from babel import Locale

    rule = Locale.parse(code).plural_form
    found: dict[str, int] = {}
    for n in range(0, 1001):
        found.setdefault(rule(n), n)
    return tuple(found.items())


def _safe_next(target: str | None) -> str:
    """Only a path on this server: never an address elsewhere (an open redirect)."""
    if not target:
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//") \
            or "\\" in target:
        return "/"
    return target


def set_language(code: str) -> Response:
    """Remember a language on this phone (a cookie) and go back to the page it was picked on."""
    target = _safe_next(request.args.get("next"))
    resp = make_response(redirect(target, code=303))
    if code in LANGUAGES:
        resp.set_cookie(COOKIE, code, max_age=COOKIE_MAX_AGE, samesite="Lax", httponly=True)
    else:
        resp.delete_cookie(COOKIE)  # "auto": follow the phone's language again
    return resp


def _vary(resp: Response) -> Response:
    if resp.mimetype == "text/html":
        resp.vary.add("Accept-Language")
        resp.vary.add("Cookie")
    return resp


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale, default_domain="messages",
          default_translation_directories=str(Path(__file__).resolve().parent / "translations"))

    @app.context_processor
    def _language_context() -> dict:
        return {"lang": language(), "dir": direction(), "languages": LANGUAGES,
                "js_catalog": js_catalog}

    app.add_url_rule("/language/<code>", "set_language", set_language)
    app.after_request(_vary)

