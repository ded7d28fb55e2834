"""Writes cannot be forged from another site, and a retried save counts once."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.webapp.pages.browser_helpers import api_get, create_game, enter_round, expect

# Another site (localhost is not 127.0.0.1 to the browser), served by the test itself, on the
# loopback address space so Chromium's private-network checks do not stop the requests first.
class OtherSite:
    """A second web server on loopback that serves whatever page the test sets, reached as
    ``localhost``: another origin and another site than the scoresheet's 127.0.0.1 (and, being
    on loopback too, not blocked by Chromium's private-network checks before the request is
    even sent, which would hide what the scoresheet server does with it)."""

    def __init__(self):
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                body = site.html.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.html = ""
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://localhost:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def open(self, page, html: str) -> None:
        self.html = html
        page.goto(self.url)

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def other_site():
    site = OtherSite()
    yield site
    site.close()


def _state(base: str, gid: str) -> tuple[int, int, int]:
    g = api_get(base, f"/api/games/{gid}")
    return api_get(base, "/api/games")["total"], len(g["rounds"]), g["version"]


def test_cross_site_forms_change_nothing(server, phones, other_site):
    owner, attacker = phones("owner"), phones("attacker")
    gid = create_game(owner.page, server.url, ["Ann", "Ben"])
    enter_round(owner.page, "Ann", {"Ben": 10})
    expect(owner.page.locator("#round-1")).to_be_attached()
    before = _state(server.url, gid)

    api = f"{server.url}/api/games"
    # text/plain with a JSON-looking body is the classic way to smuggle JSON through a form.
    smuggled = json.dumps({"players": ["X", "Y"], "pad": ""})[:-2]
    forms = [
        (f"{api}", "text/plain", [(smuggled[:-1], '"}')]),
        (f"{api}", "application/x-www-form-urlencoded", [("players", "X"), ("players", "Y")]),
        (f"{api}/{gid}/rounds", "text/plain", [('{"winner":"Ben","racks":{"Ann":99},"x":"', '"}')]),
        (f"{api}/{gid}/rounds", "multipart/form-data", [("winner", "Ben"), ("racks", "99")]),
        (f"{api}/{gid}/timer", "text/plain", [('{"action":"start","x":"', '"}')]),
        (f"{server.url}/games/{gid}", "application/x-www-form-urlencoded", [("winner", "Ben")]),
        (f"{server.url}/qr", "text/plain", [('{"text":"x","y":"', '"}')]),
    ]
    for action, enctype, fields in forms:
        inputs = "".join(f'<input type="hidden" name=\'{n}\' value=\'{v}\'>' for n, v in fields)
        other_site.open(attacker.page, f'<form id="f" method="post" action="{action}" enctype="{enctype}">'
                                  f'{inputs}</form>')
        with attacker.page.expect_navigation() as nav:
            attacker.page.evaluate("document.getElementById('f').submit()")
        status = nav.value.status if nav.value else None
        assert status in (401, 403, 405, 415), (action, enctype, status)
        assert _state(server.url, gid) == before, (action, enctype)

    # A script on another origin cannot write either (no token, and no CORS to read anything).
    other_site.open(attacker.page, "<p>hi</p>")
    result = attacker.page.evaluate("""async (url) => {
        try {
          const r = await fetch(url, {method: 'POST', mode: 'no-cors', credentials: 'include',
            headers: {'Content-Type': 'text/plain'}, body: '{"winner":"Ben","racks":{"Ann":9}}'});
          return r.type;
        } catch (e) { return 'blocked'; }
    }""", f"{api}/{gid}/rounds")
    assert result == "opaque", result  # the request reached the server, which refused it
    assert _state(server.url, gid) == before
    # The owner's sheet still shows just the one round.
    owner.page.reload()
    expect(owner.page.locator("details.round")).to_have_count(1)
    expect(owner.page.locator("#timer")).to_have_attribute("data-state", "idle")


def test_retried_save_counts_once(server, phones):
    owner = phones("owner")
    page = owner.page
    gid = create_game(page, server.url, ["Ann", "Ben", "Cy"])
    seen: list[str] = []

    def lose_first_answer(route):
        # The round reaches the server and is stored, but the phone never hears back.
        seen.append(route.request.headers.get("idempotency-key", ""))
        response = route.fetch()
        if len(seen) == 1:
            assert response.status == 201
            route.abort("connectionreset")
        else:
            route.fulfill(response=response)

    page.route(f"{server.url}/api/games/{gid}/rounds", lose_first_answer)
    enter_round(page, "Cy", {"Ann": 4, "Ben": 6})
    # The entry closes only once the phone has heard the round was saved.
    expect(page.locator("#entry")).to_be_hidden(timeout=6000)
    expect(page.locator("#round-1")).to_be_attached()
    assert len(seen) == 2 and seen[0] and seen[0] == seen[1], seen
    state = api_get(server.url, f"/api/games/{gid}")
    assert len(state["rounds"]) == 1 and state["totals"] == {"Ann": -4, "Ben": -6, "Cy": 10}
    audit = api_get(server.url, f"/api/games/{gid}/audit")["entries"]
    assert [e["action"] for e in audit].count("add-round") == 1
    expect(page.locator("details.round")).to_have_count(1)
    expect(page.locator("#pending")).to_be_hidden()

    # A new round gets a new key: it is not mistaken for the first one.
    page.unroute(f"{server.url}/api/games/{gid}/rounds")
    enter_round(page, "Ann", {"Ben": 1, "Cy": 2})
    expect(page.locator("#round-2")).to_be_attached()
    assert len(api_get(server.url, f"/api/games/{gid}")["rounds"]) == 2


def test_round_saved_without_connection_is_kept_and_sent_later(server, phones):
    owner = phones("owner")
    page = owner.page
    gid = create_game(page, server.url, ["Ann", "Ben"])
    owner.context.set_offline(True)
    enter_round(page, "Ann", {"Ben": 17})
    # The entry closes: the round waits on the phone, which says so.
    expect(page.locator("#entry")).to_be_hidden()
    expect(page.locator("#pending")).to_be_visible()
    expect(page.locator("#pending-text")).to_contain_text("1 round is waiting for the connection")
    assert api_get(server.url, f"/api/games/{gid}")["rounds"] == []

    # The phone comes back (even after a reload): the unsaved round is sent by itself, once.
    owner.context.set_offline(False)
    page.reload()
    owner.shot("pending")
    expect(page.locator("#pending")).to_be_hidden(timeout=10000)
    expect(page.locator("#round-1 > summary .score[data-player='Ann']")).to_have_text("+17")
    assert len(api_get(server.url, f"/api/games/{gid}")["rounds"]) == 1
    page.reload()
    expect(page.locator("#pending")).to_be_hidden()
    assert len(api_get(server.url, f"/api/games/{gid}")["rounds"]) == 1
