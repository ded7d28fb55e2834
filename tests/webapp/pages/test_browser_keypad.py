"""The tile keypad under a player's thumb: no tap or keystroke is lost while the server's
rack totals arrive and the cards are redrawn."""

from __future__ import annotations

from tests.webapp.pages.browser_helpers import create_game, expect


def card(player: str) -> str:
    return f".rack-card[data-player='{player}']"


def open_entry(page, winner: str) -> None:
    page.click("#new-round")
    page.locator("#winner-choices .winner-choice").filter(has_text=winner).first.click()


def test_tap_held_while_the_cards_redraw_still_counts(server, phones):
    page = phones("owner").page
    create_game(page, server.url, ["Ann", "Ben"])
    open_entry(page, "Ann")
    page.click(f"{card('Ben')} .rack-tiles-toggle")
    page.click(f"{card('Ben')} .keypad .colour[data-colour='K']")
    page.click(f"{card('Ben')} .keypad .num[data-number='1']")
    expect(page.locator(f"{card('Ben')} .preview")).to_have_text("1 tile = 1 point")
    # The thumb is down on "2" ...
    box = page.locator(f"{card('Ben')} .keypad .num[data-number='2']").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    # ... while another tile is added (the cards are redrawn) and the server's total arrives.
    page.evaluate("""(sel) => document.querySelector(sel).click()""",
                  f"{card('Ben')} .keypad .num[data-number='5']")
    expect(page.locator(f"{card('Ben')} .preview")).to_have_text("2 tiles = 6 points")
    page.mouse.up()
    expect(page.locator(f"{card('Ben')} .notation")).to_have_text("K1 K5 K2")
    expect(page.locator(f"{card('Ben')} .preview")).to_have_text("3 tiles = 8 points")
    # the greyed-out points box shows the same total
    expect(page.locator(f"{card('Ben')} .rack-points")).to_have_value("8")
    expect(page.locator(f"{card('Ben')} .rack-points")).to_be_disabled()


def test_typing_points_is_not_interrupted_by_another_racks_total(server, phones):
    page = phones("owner").page
    create_game(page, server.url, ["Ann", "Ben", "Cy"])
    open_entry(page, "Cy")
    page.click(f"{card('Ben')} .rack-tiles-toggle")
    page.click(f"{card('Ben')} .keypad .colour[data-colour='R']")
    # Tap R9 on Ben's rack and at once start typing Ann's points; Ben's total arrives meanwhile.
    page.evaluate("""([key, box]) => { document.querySelector(key).click();
                                         document.querySelector(box).focus(); }""",
                  [f"{card('Ben')} .keypad .num[data-number='9']", f"{card('Ann')} .rack-points"])
    page.keyboard.type("1")
    expect(page.locator(f"{card('Ben')} .preview")).to_have_text("1 tile = 9 points")
    page.keyboard.type("2")
    expect(page.locator(f"{card('Ann')} .rack-points")).to_have_value("12")
