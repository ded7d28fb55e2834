"""The pages' languages: the catalogs are complete and compile, the phone's Accept-Language
picks the language, the switch (a cookie) overrides it, Hebrew reads right to left."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from webapp import i18n

REPO = Path(__file__).resolve().parents[3]
TRANSLATIONS = REPO / "webapp" / "translations"
LOCALES = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None, "t": None,
            "tn": (1, 2), "tx": None}
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _source_messages() -> dict[str, tuple]:
    """Every string the templates, the Python code and the JavaScript mark for translation,
    extracted from the sources now (as ``pybabel extract -F babel.cfg`` does)."""
    with open(REPO / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    found = {}
    for _file, _line, message, _comments, _context in extract_from_dir(
            str(REPO), method_map, options_map, keywords=KEYWORDS):
        key = message if isinstance(message, tuple) else (message,)
        found[key[0]] = key
    return found


def _po(code: str):
    with open(TRANSLATIONS / code / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f, locale=code)


def _strings(value) -> list[str]:
    return list(value) if isinstance(value, (tuple, list)) else [value]


@pytest.fixture(scope="module")
def source_messages():
    return _source_messages()


def test_the_sources_mark_the_pages_strings(source_messages):
    # A sample from each kind of source: a template, the Python code, the JavaScript.
    assert "Share this game" in source_messages                                  # game.html
    assert "There is no game with this link. Check the address, or start a new game." in source_messages
    assert source_messages["%(n)s tile"] == ("%(n)s tile", "%(n)s tiles")       # game-entry.js, tn()
    assert "Enter at least two players' names." in source_messages              # start.js


@pytest.mark.parametrize("code", LOCALES)
def test_every_string_is_translated(code, source_messages):
    catalog = _po(code)
    missing, fuzzy, bad = [], [], []
    for msgid, key in source_messages.items():
        entry = catalog.get(key if len(key) > 1 else msgid)
        if entry is None or not all(_strings(entry.string)):
            missing.append(msgid)
            continue
        if entry.fuzzy:
            fuzzy.append(msgid)
        wanted = set(PLACEHOLDER.findall(" ".join(key)))
        for form in _strings(entry.string):
            got = set(PLACEHOLDER.findall(form))
            # A plural's singular form may spell its number out ("one tile"); nothing else may
            # drop a placeholder, and no translation may invent one.
            if not got <= wanted or (len(key) == 1 and got != wanted):
                bad.append(f"{msgid!r} -> {form!r}")
    assert not missing, f"{code}: untranslated: {missing}"
    assert not fuzzy, f"{code}: fuzzy: {fuzzy}"
    assert not bad, f"{code}: placeholders differ: {bad}"


@pytest.mark.parametrize("code", LOCALES)
def test_catalogs_compile_and_the_compiled_copy_is_current(code):
    catalog = _po(code)
    problems = [(m.id, errs) for m, errs in catalog.check()]
    assert not problems, problems
    with open(TRANSLATIONS / code / "LC_MESSAGES" / "messages.mo", "rb") as f:
        compiled = read_mo(f)
    po = {tuple(_strings(m.id)): tuple(_strings(m.string)) for m in catalog if m.id}
    mo = {tuple(_strings(m.id)): tuple(_strings(m.string)) for m in compiled if m.id}
    assert mo == po, (f"{code}: messages.mo is older than messages.po; run "
                      "`pybabel compile -d webapp/translations`")


@pytest.fixture
def client(app):
    return app.test_client()


def _html(resp) -> str:
    assert resp.status_code == 200, resp.status_code
    return resp.get_data(as_text=True)


def test_the_phones_language_picks_the_pages_language(client):
    assert "Neues Spiel" in _html(client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9"}))
    assert "Nieuw spel" in _html(client.get("/", headers={"Accept-Language": "nl-BE"}))
    # A language we do not have: the best one we do, else English.
    assert "Nieuw spel" in _html(client.get("/", headers={"Accept-Language": "fr, nl;q=0.5"}))
    page = _html(client.get("/", headers={"Accept-Language": "fr"}))
    assert "New game" in page and '<html lang="en" dir="ltr">' in page
    resp = client.get("/", headers={"Accept-Language": "de"})
    assert {"Accept-Language", "Cookie"} <= set(resp.vary)  # a cache keeps one copy per language


def test_hebrew_reads_right_to_left(client):
    page = _html(client.get("/history", headers={"Accept-Language": "he-IL"}))
    assert '<html lang="he" dir="rtl">' in page and "משחק חדש" in page


def test_the_switch_overrides_the_phone_and_goes_back(client):
    resp = client.get("/language/nl?next=/history?page=0")
    assert resp.status_code == 303 and resp.headers["Location"] == "/history?page=0"
    assert "lang=nl" in resp.headers["Set-Cookie"]
    page = _html(client.get("/history", headers={"Accept-Language": "de"}))
    assert "Geschiedenis" in page and '<html lang="nl"' in page
    # The switch lists every language in its own name, the current one marked.
    assert re.search(r'hreflang="nl" aria-current="true">Nederlands<', page)
    assert 'hreflang="he">עברית<' in page
    # An unknown code forgets the choice: the phone's language again.
    resp = client.get("/language/xx?next=/")
    assert resp.status_code == 303 and "lang=;" in resp.headers["Set-Cookie"]
    assert "Neues Spiel" in _html(client.get("/", headers={"Accept-Language": "de"}))


@pytest.mark.parametrize("target", ["//evil.example/x", "https://evil.example/", "\\\\evil",
                                    "/\\evil.example", "javascript:alert(1)", ""])
def test_the_switch_never_sends_the_phone_elsewhere(client, target):
    resp = client.get("/language/de", query_string={"next": target})
    assert resp.status_code == 303 and resp.headers["Location"] == "/"


def test_the_pages_script_gets_its_strings_translated(client):
    page = _html(client.get("/", headers={"Accept-Language": "de"}))
    block = re.search(r'<script type="application/json" id="rr-i18n">(.*?)</script>', page, re.S)
    data = json.loads(block.group(1))
    assert data["lang"] == "de"
    assert data["messages"]["Enter at least two players' names."] == \
        "Gib die Namen von mindestens zwei Spielern ein."
    assert data["messages"]["%(n)s tile"] == {"one": "%(n)s Stein", "other": "%(n)s Steine"}
    he = _html(client.get("/", headers={"Accept-Language": "he"}))
    data = json.loads(re.search(r'id="rr-i18n">(.*?)</script>', he, re.S).group(1))
    assert set(data["messages"]["%(n)s tile"]) == {"one", "two", "other"}  # Hebrew's categories


def test_times_are_sent_as_machine_readable_utc(client):
    r = client.post("/api/games", json={"players": ["Ann", "Ben"]})
    gid = r.get_json()["id"]
    page = _html(client.get(f"/games/{gid}/audit"))
    stamp = re.search(r'<time datetime="([^"]+)">([^<]+)</time>', page)
    assert stamp, "the change log's times are <time> elements"
    assert stamp.group(1).endswith("Z") and stamp.group(2).endswith(" UTC")
