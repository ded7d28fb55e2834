"""A whole game on one phone, from the start page to the CSV export."""

from __future__ import annotations

import csv
import io
import re

from tests.webapp.pages.browser_helpers import api_get, create_game, enter_round, expect, tap_tiles


def scores_of(page, round_no: int) -> dict[str, str]:
    row = page.locator(f"#round-{round_no} > summary .score")
    return {row.nth(i).get_attribute("data-player"): row.nth(i).inner_text()
            for i in range(row.count())}


def test_whole_game_from_creation_to_export(table_server, phones):
    server = table_server
    owner = phones("owner")
    page = owner.page
    page.goto(server.url + "/")
    # The presets are offered with their plain-language description.
    expect(page.locator("label.preset")).to_have_count(4)
    expect(page.locator("label.preset:has(input:checked) .preset-desc")).to_contain_text("Joker left on a rack: 30")
    # Too few players: a clear message, nothing created.
    page.locator("#player-rows input[name=player]").first.fill("Ann")
    page.click("#start-game")
    expect(page.locator("#start-error")).to_have_text("Enter at least two players' names.")
    owner.shot("start")

    gid = create_game(page, server.url, ["Ann", "Ben", "Cy"], preset="sabra", device="Ann's phone")
    # Just created: the share panel is open with the viewer link and its QR code, and the
    # owner link carries the token in the fragment only.
    expect(page.locator("#share")).to_have_attribute("open", "")
    # Opened on the serving computer as 127.0.0.1, it shares the address the phones reach.
    expect(page.locator("#viewer-link")).to_have_text(f"{server.phone_url}/games/{gid}")
    expect(page.locator("#viewer-qr svg.segno")).to_be_visible()
    token = page.evaluate(f"localStorage.getItem('rummiref:token:{gid}')")
    assert token and len(token) >= 16
    expect(page.locator("#owner-link")).to_have_value(f"{server.phone_url}/games/{gid}#token={token}")
    page.click("#owner-qr-show")
    expect(page.locator("#owner-qr")).to_be_visible()
    expect(page.locator("#role")).to_have_text("You can edit")
    expect(page.locator(".gamehead details.rules summary")).to_contain_text("Sabra")
    owner.shot("created", full_page=False)
    page.locator("#share summary").click()  # fold it away again

    # Round 1: Ann goes out; Ben's rack typed as points, Cy's tapped on the tile keypad.
    page.click("#new-round")
    page.locator("#winner-choices .winner-choice").filter(has_text="Ann").click()
    page.locator(".rack-card[data-player='Ben'] .rack-points").fill("12")
    tap_tiles(page, "Cy", "R5 K13 J")
    expect(page.locator(".rack-card[data-player='Cy'] .notation")).to_have_text("R5 K13 J")
    # The server adds it up with the preset's joker penalty (30) before anything is saved.
    expect(page.locator(".rack-card[data-player='Cy'] .preview")).to_have_text("3 tiles = 48 points")
    # A picked tile can be taken off again.
    tap_tiles(page, "Cy", "B2")
    expect(page.locator(".rack-card[data-player='Cy'] .notation")).to_have_text("R5 K13 J B2")
    expect(page.locator(".rack-card[data-player='Cy'] .preview")).to_have_text("4 tiles = 50 points")
    page.locator(".rack-card[data-player='Cy'] .chip", has_text="B2").click()
    expect(page.locator(".rack-card[data-player='Cy'] .notation")).to_have_text("R5 K13 J")
    expect(page.locator(".rack-card[data-player='Cy'] .preview")).to_have_text("3 tiles = 48 points")
    page.click(".rack-card[data-player='Cy'] .rack-tiles-toggle")  # keypad open for the picture
    owner.shot("entry-keypad")
    page.click(".rack-card[data-player='Cy'] .rack-tiles-toggle")
    page.click("#entry-save")
    expect(page.locator("#round-1")).to_be_visible()
    assert scores_of(page, 1) == {"Ann": "+60", "Ben": "\u221212", "Cy": "\u221248"}
    expect(page.locator("#round-1 > summary .sum")).to_have_text("0\u2713")

    # A third copy of a tile is refused with the server's message, and nothing is saved.
    page.click("#new-round")
    page.locator("#winner-choices .winner-choice").filter(has_text="Ben").click()
    tap_tiles(page, "Ann", "O7 O7 O7")
    # One rack with a third copy: the preview says so at once.
    expect(page.locator(".rack-card[data-player='Ann'] .preview")).to_contain_text("O7")
    page.locator(".rack-card[data-player='Ann'] .chip", has_text="O7").first.click()
    expect(page.locator(".rack-card[data-player='Ann'] .preview")).to_have_text("2 tiles = 14 points")
    # Two racks together with three O7s: refused when saved, with the server's message.
    tap_tiles(page, "Cy", "O7")
    page.click("#entry-save")
    expect(page.locator("#entry-error")).to_contain_text("O7")
    assert len(api_get(server.url, f"/api/games/{gid}")["rounds"]) == 1
    page.click("#entry-cancel")

    # Round 2: nobody went out; the preset scores by the difference to the lowest rack.
    enter_round(page, None, {"Ann": 10, "Ben": 4, "Cy": 7})
    expect(page.locator("#round-2")).to_be_visible()
    assert scores_of(page, 2) == {"Ann": "\u22126", "Ben": "+9", "Cy": "\u22123"}

    # Edit round 1: Ben had 20, not 12.
    page.locator("#round-1 > summary").click()
    page.click("#round-1 .edit-round")
    expect(page.locator("#entry-title")).to_have_text("Edit round 1")
    expect(page.locator(".rack-card[data-player='Cy'] .notation")).to_have_text("R5 K13 J")
    page.locator(".rack-card[data-player='Ben'] .rack-points").fill("20")
    page.click("#entry-save")
    expect(page.locator("#round-1 > summary .score[data-player='Ann']")).to_have_text("+68")
    expect(page.locator("#round-1 .meta")).to_contain_text("edited")

    # Round 3, then undo it.
    enter_round(page, "Cy", {"Ann": 5, "Ben": "K1 K2 K3"})
    expect(page.locator("#round-3")).to_be_visible()
    assert scores_of(page, 3) == {"Ann": "\u22125", "Ben": "\u22126", "Cy": "+11"}
    page.locator("#round-3 > summary").click()
    page.once("dialog", lambda d: d.accept())
    page.click("#round-3 .undo-round")
    expect(page.locator("#round-3")).to_have_count(0)

    # Totals, ranking and the zero sum on the sheet; the API agrees.
    totals = {"Ann": "+62", "Ben": "\u221211", "Cy": "\u221251"}
    for name, text in totals.items():
        expect(page.locator(f".grid.total .score[data-player='{name}']")).to_have_text(text)
    expect(page.locator("#grand-sum")).to_have_text("0\u2713")
    expect(page.locator(".ranking li .name")).to_have_text(["Ann", "Ben", "Cy"])
    expect(page.locator("#next-starter")).to_have_text("Cy")
    expect(page.locator("svg.chart g.series polyline")).to_have_count(3)
    state = api_get(server.url, f"/api/games/{gid}")
    assert state["totals"] == {"Ann": 62, "Ben": -11, "Cy": -51}
    assert [r["number"] for r in state["rounds"]] == [1, 2]
    owner.shot("sheet")

    # The change log names the phone and every change.
    page.click("#audit-link")
    expect(page.locator(".audit-entry")).to_have_count(6)  # create, 3 adds, 1 edit, 1 undo
    expect(page.locator(".audit-entry .actor").first).to_have_text("Ann's phone")
    expect(page.locator(".audit-entry.kind-edit-round")).to_contain_text("\u221212")
    expect(page.locator(".audit-entry.kind-undo-round")).to_contain_text("round 3")
    owner.shot("audit")
    page.go_back()

    # CSV export: downloaded, and it holds the same numbers.
    with page.expect_download() as dl:
        page.click("#csv-link")
    text = open(dl.value.path(), encoding="utf-8-sig").read()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:3] == ["Round", "Starter", "Winner"]
    assert rows[0][3:6] == ["Ann", "Ben", "Cy"]
    assert [r[3:6] for r in rows[1:3]] == [["68", "-20", "-48"], ["-6", "9", "-3"]]
    assert rows[-1][0] == "Total" and rows[-1][3:6] == ["62", "-11", "-51"]

    # History: the game and each player's record.
    page.goto(server.url + "/history")
    expect(page.locator(".past-game")).to_have_count(1)
    expect(page.locator(".past-game .leader")).to_contain_text("Ann")
    expect(page.locator("table.records tr[data-player='Ann'] td").nth(2)).to_have_text("1")
    owner.shot("history")

    # Coming back to the start page, this phone lists the game it can edit.
    page.goto(server.url + "/")
    expect(page.locator("#my-games-list a")).to_have_attribute("href", re.compile(gid))


def test_rack_read_from_a_photo_is_offered_once(server, phones):
    """The camera page leaves the rack it read in this phone's storage; the round form offers it."""
    owner = phones("owner")
    page = owner.page
    gid = create_game(page, server.url, ["Ann", "Ben"])
    page.evaluate("""([gid]) => localStorage.setItem('rummiref:rack:' + gid + ':Ben',
        JSON.stringify({tiles: 'B3 B4 J', value: 37, at: Date.now()}))""", [gid])
    page.click("#new-round")
    page.locator("#winner-choices .winner-choice").filter(has_text="Ann").click()
    offer = page.locator(".rack-card[data-player='Ben'] .photo-rack")
    expect(offer).to_have_text("Use the rack from the photo: B3 B4 J")
    offer.click()
    expect(page.locator(".rack-card[data-player='Ben'] .notation")).to_have_text("B3 B4 J")
    expect(page.locator(".rack-card[data-player='Ben'] .preview")).to_have_text("3 tiles = 37 points")
    page.click("#entry-save")
    expect(page.locator("#round-1 > summary .score[data-player='Ann']")).to_have_text("+37")
    assert page.evaluate(f"localStorage.getItem('rummiref:rack:{gid}:Ben')") is None
    page.click("#new-round")
    page.locator("#winner-choices .winner-choice").filter(has_text="Ann").click()
    expect(page.locator(".photo-rack")).to_have_count(0)
