"""The live table page on a phone (Chromium through Playwright): a verdict shows up by itself
within 2 s of the watcher posting it; 'End turn' reaches the server; a misread tile is
corrected from the dispute view. Skipped (with the reason) when Chromium is not installed."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

pytestmark = pytest.mark.browser

def _post(url, body, token):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json",
                                          "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def test_live_page_shows_verdicts_by_itself_and_corrections_work(browser, live_app, game):
    from playwright.sync_api import expect

    from webapp.testing import LiveServer

    server = LiveServer(live_app)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True)
    ctx.set_default_timeout(5000)
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        api = server.url + game["api"]
        _post(api + "/snapshots", {"reading": {"table": ""}}, game["token"])
        page.goto(f"{server.url}/games/{game['id']}/live#token={game['token']}")
        expect(page.locator("#lv-verdict")).to_contain_text("Waiting for the first turn")
        expect(page.locator("#lv-next")).to_have_text("Ann")
        time.sleep(0.5)  # the page's event stream is open
        t0 = time.monotonic()
        _post(api + "/snapshots", {"reading": {"table": "R7 R3 R9 R10"}}, game["token"])
        expect(page.locator("#lv-verdict")).to_contain_text("Not valid", timeout=2000)
        shown = time.monotonic() - t0
        assert shown < 2.0
        expect(page.locator("#lv-next")).to_have_text("Ben")
        expect(page.locator("#lv-verdict")).to_contain_text("restore the table")
        # End turn from the phone reaches the server
        page.click("#lv-end-turn")
        expect(page.locator("#lv-end-turn")).to_have_text("Reading the table…")
        with urllib.request.urlopen(api, timeout=5) as r:
            assert json.loads(r.read())["end_turn"]
        # Dispute view: R3 was really R8
        page.goto(f"{server.url}/games/{game['id']}/live/turns/1")
        expect(page.locator("#lv-solver")).to_contain_text("No: restore the table")
        page.once("dialog", lambda d: d.accept("R8"))
        page.click("button.lv-tile[data-side=after][data-index='1']")
        expect(page.locator(".lv-verdict")).to_contain_text("Valid", timeout=5000)
        expect(page.locator("body")).to_contain_text("R3 → R8")
        assert errors == []
    finally:
        ctx.close()
        server.stop()
