"""Player names are data, never markup: HTML in a name shows as text on every page."""

from __future__ import annotations

from tests.webapp.pages.browser_helpers import create_game, enter_round, expect

NAMES = ["<script>window.__pwned=1</script>", "<img src=x onerror=window.__pwned=2>",
         "\"><svg onload=window.__pwned=3>", "Dee & 'Co'"]


def _clean(page) -> None:
    assert page.evaluate("window.__pwned") is None, "a player's name ran as script"
    assert page.locator("img[src=x]").count() == 0
    assert page.locator("body svg[onload]").count() == 0


def test_html_in_player_names_is_shown_as_text(server, phones):
    owner, viewer = phones("owner"), phones("viewer")
    page = owner.page
    page.on("dialog", lambda d: (_ for _ in ()).throw(AssertionError(f"dialog opened: {d.message}")))
    gid = create_game(page, server.url, NAMES)
    viewer.page.goto(f"{server.url}/games/{gid}")
    expect(viewer.page.locator("#live")).to_have_attribute("data-state", "live")

    # The names appear literally in the title, the timer, the standings and the entry buttons.
    expect(page.locator(".players-title bdi")).to_have_text(NAMES)
    expect(page.locator(".ranking .name")).to_have_text(NAMES)
    expect(page.locator("#timer-player")).to_have_text(NAMES[0])
    page.click("#new-round")
    expect(page.locator("#winner-choices .winner-choice")).to_have_text(NAMES)
    page.click("#entry-cancel")

    enter_round(page, NAMES[1], {NAMES[0]: 5, NAMES[2]: "R1 J", NAMES[3]: 2})
    expect(page.locator("#round-1")).to_be_attached()
    for p in (page, viewer.page):  # the owner and the phone refreshed by the live event
        expect(p.locator("#round-1 > summary .score.won")).to_have_attribute("data-player", NAMES[1])
        expect(p.locator(".legend .lname")).to_have_text(NAMES)
        expect(p.locator("svg.chart g.series title").first).to_have_text(NAMES[0] + ": \u22125")
        _clean(p)
    owner.shot("sheet")

    for path in (f"/games/{gid}/audit", "/history", "/", f"/games/{gid}/chart.svg"):
        page.goto(server.url + path)
        _clean(page)
    page.goto(server.url + "/history")
    expect(page.locator("table.records td.name")).to_contain_text([NAMES[1]])
    page.goto(server.url + "/")
    expect(page.locator("#my-games-list a")).to_contain_text(NAMES[0])
    owner.shot("start")
