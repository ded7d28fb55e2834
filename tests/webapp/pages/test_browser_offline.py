"""The scoresheet as an installable app that keeps working when the table's Wi-Fi drops, at
390x844 and in landscape: the manifest and icons, the page and its last sheet opened with no
connection (the service worker), rounds entered offline waiting on the phone and sent once, in
order, when the connection is back, even when an answer is lost on the way."""

from __future__ import annotations

import io
import json
import urllib.request

import pytest

from tests.webapp.pages.browser_helpers import api_get, create_game, enter_round, expect

SHAPES = {"portrait": {"viewport": {"width": 390, "height": 844}},
          "landscape": {"viewport": {"width": 844, "height": 390}}}


def _fetch(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=5) as r:
        return r.status, r.headers.get_content_type(), r.read()


def test_manifest_icons_and_favicon_make_it_installable(server):
    from PIL import Image

    status, ctype, body = _fetch(server.url + "/manifest.webmanifest")
    assert (status, ctype) == (200, "application/manifest+json")
    manifest = json.loads(body)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["name"] == "rummiref"
    sizes = {}
    for icon in manifest["icons"]:
        status, ctype, data = _fetch(server.url + icon["src"])
        assert status == 200 and ctype == icon["type"], icon
        if ctype == "image/png":
            img = Image.open(io.BytesIO(data))
            assert f"{img.width}x{img.height}" == icon["sizes"], icon
            sizes[(icon["sizes"], icon.get("purpose", "any"))] = img
    # What Chrome asks for before it offers to install: a 192 and a 512 icon, and a maskable one.
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= set(sizes)
    # The maskable icon keeps its tile inside the middle (the launcher crops the rest): its edges
    # are the plain green background.
    mask = sizes[("512x512", "maskable")].convert("RGB")
    assert all(mask.getpixel(p) == (0x1b, 0x5e, 0x20) for p in [(60, 60), (450, 60), (60, 450), (256, 60)])
    status, ctype, data = _fetch(server.url + "/favicon.ico")
    ico = Image.open(io.BytesIO(data))
    assert ico.format == "ICO" and {(16, 16), (32, 32), (48, 48)} <= set(ico.info["sizes"])
    status, ctype, data = _fetch(server.url + "/apple-touch-icon.png")
    assert Image.open(io.BytesIO(data)).size == (180, 180)
    # An icon size nobody asked for is not drawn on demand.
    with pytest.raises(urllib.error.HTTPError) as err:
        _fetch(server.url + "/icons/icon-100.png")
    assert err.value.code == 404
    # Every page points to them.
    _, _, page = _fetch(server.url + "/")
    for link in (b'rel="manifest" href="/manifest.webmanifest"', b'href="/favicon.ico"',
                 b'rel="apple-touch-icon" href="/apple-touch-icon.png"'):
        assert link in page


def _controlled(page) -> None:
    """Wait until the service worker has installed and controls the page."""
    import time

    deadline = time.monotonic() + 10
    while not page.evaluate("() => Boolean(navigator.serviceWorker && navigator.serviceWorker.controller)"):
        assert time.monotonic() < deadline, "the service worker never took the page"
        time.sleep(0.1)


def _score(page, n: int, player: str):
    return page.locator(f"#round-{n} > summary .score[data-player='{player}']")


@pytest.mark.parametrize("shape", ["portrait", "landscape"])
def test_the_sheet_opens_and_takes_rounds_without_wifi_and_syncs_once(server, phones, shape):
    owner = phones("owner", **SHAPES[shape])
    viewer = phones("viewer", **SHAPES[shape])
    page = owner.page
    gid = create_game(page, server.url, ["Ann", "Ben", "Cy"])
    _controlled(page)
    enter_round(page, "Ann", {"Ben": 5, "Cy": 7})
    expect(_score(page, 1, "Ann")).to_have_text("+12")
    viewer.page.goto(f"{server.url}/games/{gid}")
    expect(viewer.page.locator("#round-1")).to_be_attached()
    _controlled(viewer.page)
    # Both phones lose the Wi-Fi; the sheet opens anyway, from the copy each phone kept.
    owner.context.set_offline(True)
    viewer.context.set_offline(True)
    # Chromium may apply the offline emulation to a reloaded page a moment late: the rounds
    # are also refused at the door until the Wi-Fi comes back.
    rounds_url = f"{server.url}/api/games/{gid}/rounds"
    page.route(rounds_url, lambda route: route.abort("internetdisconnected"))
    # and at the context too, which also sees requests a page's route may miss (one sent
    # as the page reloads, one passed on by its service worker): a round once reached the
    # server here while the phone was meant to be offline (1 CI run of 3, 2026-11-25)
    owner.context.route(rounds_url, lambda route: route.abort("internetdisconnected"))
    page.reload()
    expect(_score(page, 1, "Ann")).to_have_text("+12")
    viewer.page.reload()
    expect(_score(viewer.page, 1, "Ann")).to_have_text("+12")
    expect(viewer.page.locator("#pending")).to_be_hidden()
    viewer.shot("offline", full_page=False)

    # Two rounds entered with no connection wait on the owner's phone, in order.
    enter_round(page, "Ben", {"Ann": 3, "Cy": 4})
    expect(page.locator("#entry")).to_be_hidden()
    expect(page.locator("#pending")).to_be_visible()
    expect(page.locator("#pending-text")).to_have_text(
        "1 round is waiting for the connection: it is sent by itself when the Wi-Fi is back, and counts once.")
    expect(page.locator("#next-round-no")).to_have_text("3")
    enter_round(page, "Cy", {"Ann": 1, "Ben": 2})
    expect(page.locator("#pending-text")).to_contain_text("2 rounds are waiting for the connection")
    owner.shot("waiting", full_page=False)
    # ...and survive a reload without a connection.
    page.reload()
    expect(page.locator("#pending-text")).to_contain_text("2 rounds are waiting")
    assert len(api_get(server.url, f"/api/games/{gid}")["rounds"]) == 1

    # The Wi-Fi comes back, and the first answer to the first round is lost on the way: it is
    # sent again with the same key, and the server counts it once.
    seen: list[str] = []

    def lose_first_answer(route):
        seen.append(route.request.headers.get("idempotency-key", ""))
        response = route.fetch()
        if len(seen) == 1:
            route.abort("connectionreset")
        else:
            route.fulfill(response=response)

    page.unroute(rounds_url)
    owner.context.unroute(rounds_url)
    page.route(rounds_url, lose_first_answer)
    viewer.context.set_offline(False)
    owner.context.set_offline(False)  # nobody taps anything: the phone sends by itself
    expect(page.locator("#pending")).to_be_hidden(timeout=15000)
    expect(_score(page, 3, "Cy")).to_have_text("+3")
    expect(_score(page, 2, "Ben")).to_have_text("+7")
    assert seen[0] == seen[1] and len(set(seen)) == 2, seen
    state = api_get(server.url, f"/api/games/{gid}")
    assert [r["winner"] for r in state["rounds"]] == ["Ann", "Ben", "Cy"]
    assert state["totals"] == {"Ann": 12 - 3 - 1, "Ben": -5 + 7 - 2, "Cy": -7 - 4 + 3}
    audit = api_get(server.url, f"/api/games/{gid}/audit")["entries"]
    assert [e["action"] for e in audit].count("add-round") == 3
    # The viewer's sheet catches up by itself.
    expect(_score(viewer.page, 3, "Cy")).to_have_text("+3", timeout=10000)
    owner.shot("synced", full_page=False)
    page.reload()
    expect(page.locator("#pending")).to_be_hidden()
    expect(page.locator("#next-round-no")).to_have_text("4")


def test_a_game_opened_while_the_worker_installs_is_still_kept_for_offline(server, phones, monkeypatch):
    """A slow phone on a busy Wi-Fi: the service worker becomes active while the game's page is
    still loading. claim() passes over a page that is not ready yet, so the page asks the
    worker itself; without that, the game stayed out of the worker's hands until the next
    visit (this made the test above fail now and then on a busy machine)."""
    import re
    import time

    from webapp import install

    icon = install.icon_png

    def slow_icon(size, maskable=False):  # the worker's install waits on the shell's icon...
        time.sleep(0.5)
        return icon(size, maskable)

    monkeypatch.setattr(install, "icon_png", slow_icon)
    inner = server.app.wsgi_app
    slowed: list[str] = []

    def slow_first_game_page(environ, start_response):  # ...and the game's page is slower
        if (environ["REQUEST_METHOD"] == "GET" and not slowed
                and re.fullmatch(r"/games/[A-Za-z0-9_-]+", environ["PATH_INFO"])):
            slowed.append(environ["PATH_INFO"])
            time.sleep(1.5)
        return inner(environ, start_response)

    monkeypatch.setattr(server.app, "wsgi_app", slow_first_game_page)
    owner = phones("owner")
    page = owner.page
    gid = create_game(page, server.url, ["Ann", "Ben"])
    assert slowed == [f"/games/{gid}"]
    _controlled(page)
    owner.context.set_offline(True)
    page.reload()
    expect(page.locator("#new-round")).to_be_visible()
    expect(page.locator("#next-round-no")).to_have_text("1")


def test_a_round_the_server_refuses_later_is_reported_not_lost_silently(server, phones):
    owner = phones("owner")
    page = owner.page
    gid = create_game(page, server.url, ["Ann", "Ben"])
    owner.context.set_offline(True)
    enter_round(page, "Ann", {"Ben": 5})
    expect(page.locator("#pending")).to_be_visible()
    # Meanwhile the game was deleted on another phone: the waiting round has nowhere to go.
    token = page.evaluate(f"localStorage.getItem('rummiref:token:{gid}')")
    req = urllib.request.Request(f"{server.url}/api/games/{gid}", method="DELETE",
                                 headers={"Authorization": f"Bearer {token}"})
    urllib.request.urlopen(req, timeout=5).close()
    owner.context.set_offline(False)  # sent by itself, and refused
    expect(page.locator("#outbox-error")).to_contain_text(
        "A round entered without a connection was not saved: ", timeout=15000)
    expect(page.locator("#pending")).to_be_hidden()
    owner.shot("refused", full_page=False)


def test_discarding_waiting_rounds_asks_first(server, phones):
    owner = phones("owner")
    page = owner.page
    gid = create_game(page, server.url, ["Ann", "Ben"])
    owner.context.set_offline(True)
    enter_round(page, "Ann", {"Ben": 5})
    page.click("#pending-drop")
    page.click("dialog.confirm button[value=cancel]")
    expect(page.locator("#pending")).to_be_visible()
    page.click("#pending-drop")
    expect(page.locator("dialog.confirm h2")).to_have_text("Discard the round that was not sent?")
    page.click("dialog.confirm button[value=ok]")
    expect(page.locator("#pending")).to_be_hidden()
    owner.context.set_offline(False)
    page.reload()
    expect(page.locator("#pending")).to_be_hidden()
    assert api_get(server.url, f"/api/games/{gid}")["rounds"] == []
