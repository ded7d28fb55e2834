"""The pages in the phone's language, right-to-left names in their place, times in the phone's
own time zone."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

from tests.webapp.pages.browser_helpers import api_get, create_game, enter_round, expect, tap_tiles


def test_a_german_phone_gets_german_pages_and_messages(server, phones):
    phone = phones("de", locale="de-DE")
    page = phone.page
    page.goto(server.url + "/")
    expect(page.locator("h1")).to_have_text("Neues Spiel")
    page.click("#start-game")  # no players: the script's message, in German
    expect(page.locator("#start-error")).to_have_text("Gib die Namen von mindestens zwei Spielern ein.")
    create_game(page, server.url, ["Ann", "Ben", "Cy"], preset="sabra")
    expect(page.locator("#role")).to_have_text("Du kannst bearbeiten")
    expect(page.locator("#live")).to_have_text("live")
    page.click("#new-round")
    expect(page.locator("#entry-title")).to_have_text("Runde 1")
    page.locator("#winner-choices .winner-choice").filter(has_text="Ann").click()
    page.locator(".rack-card[data-player='Ben'] .rack-points").fill("12")
    tap_tiles(page, "Cy", "R5")
    expect(page.locator(".rack-card[data-player='Cy'] .preview")).to_have_text("1 Stein = 5 Punkte")
    tap_tiles(page, "Cy", "K13 J")
    expect(page.locator(".rack-card[data-player='Cy'] .preview")).to_have_text("3 Steine = 48 Punkte")
    page.click("#entry-save")
    expect(page.locator("#rounds-count")).to_have_text("1 Runde")
    phone.shot("sheet-de", full_page=False)


def test_the_switch_changes_the_language_and_keeps_it(server, phones):
    phone = phones("switch", locale="en-GB")
    page = phone.page
    page.goto(server.url + "/history")
    expect(page.locator("main h1").first).to_have_text("Players")
    page.locator("footer.languages a[hreflang=nl]").click()
    page.wait_for_url(server.url + "/history")
    expect(page.locator("main h1").first).to_have_text("Spelers")
    page.goto(server.url + "/")
    expect(page.locator("h1")).to_have_text("Nieuw spel")
    expect(page.locator("footer.languages a[aria-current]")).to_have_text("Nederlands")


def test_hebrew_is_right_to_left_and_a_score_stays_with_its_name(server, phones):
    phone = phones("he", locale="he-IL")
    page = phone.page
    names = ["שרה", "Ann", "דוד"]
    gid = create_game(page, server.url, names, preset="sabra")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    enter_round(page, "Ann", {"שרה": 12, "דוד": 7})
    expect(page.locator(".ranking li")).to_have_count(3)
    expect(page.locator(".ranking li[data-player='שרה'] .total")).to_have_text("\u221212")
    # Right to left: each row reads rank, name, total from the right; the total's sign stays
    # before its digits (on their left), and the whole row sits on one line.
    # (Measured in one go: a live update may swap the sheet in between two separate looks.)
    layout = page.evaluate("""() => Array.from(document.querySelectorAll(".ranking li"), (li) => {
        const box = (s) => li.querySelector(s).getBoundingClientRect();
        const t = li.querySelector(".total").firstChild;
        const r = document.createRange();
        r.setStart(t, 0); r.setEnd(t, 1);
        const sign = r.getBoundingClientRect();
        r.setStart(t, 1); r.setEnd(t, t.length);
        const digits = r.getBoundingClientRect();
        return {name: li.dataset.player, rank: box(".rank").x, label: box(".name").x,
                total: box(".total").x, sameLine: Math.abs(box(".name").y - box(".total").y) < 20,
                signFirst: t.length < 2 || sign.right <= digits.left + 0.5};
    })""")
    assert {row["name"] for row in layout} == set(names)
    for row in layout:
        assert row["rank"] > row["label"] > row["total"] and row["sameLine"], row
        assert row["signFirst"], f"the sign of {row['name']}'s total is drawn after its digits"
    phone.shot("sheet-he", full_page=False)
    assert api_get(server.url, f"/api/games/{gid}")["totals"]["שרה"] == -12


def test_times_show_in_the_phones_time_zone(server, phones):
    phone = phones("nz", locale="en-GB", timezone_id="Pacific/Auckland")
    page = phone.page
    gid = create_game(page, server.url, ["Ann", "Ben"])
    created = api_get(server.url, f"/api/games/{gid}")["created_at"]
    at = datetime.fromisoformat(created.replace("Z", "+00:00")).astimezone(ZoneInfo("Pacific/Auckland"))
    page.goto(f"{server.url}/games/{gid}/audit")
    stamp = page.locator(".audit-entry time").first
    expect(stamp).to_have_attribute("datetime", re.compile(r"Z$"))
    # The phone's own way of writing it (en-GB: "24 Nov 2026, 04:50"), in its time zone.
    expect(stamp).to_have_text(f"{at.day} {at.strftime('%b %Y, %H:%M')}")
    expect(stamp).not_to_contain_text("UTC")
    page.goto(f"{server.url}/history")
    expect(page.locator(".past-game time").first).to_contain_text(at.strftime("%H:%M"))
