"""Comfort at the table, at 390x844 and in landscape: the colour keys of the tile keypad are
readable whether chosen or not (WCAG AA, 4.5:1), and the pages follow the phone's dark mode."""

from __future__ import annotations

import re

import pytest

from tests.webapp.pages.browser_helpers import create_game, expect

SHAPES = {"portrait": {"viewport": {"width": 390, "height": 844}},
          "landscape": {"viewport": {"width": 844, "height": 390}}}

# The colour a key's text and background really show: computed styles, with the opacity of the
# key and of its ancestors applied over the card behind it.
KEY_COLOURS = """(key) => {
  const rgb = (s) => s.match(/[\\d.]+/g).map(Number);
  let opacity = 1;
  for (let n = key; n; n = n.parentElement) opacity *= Number(getComputedStyle(n).opacity);
  let n = key, bg = null;
  while (n && !bg) { const c = rgb(getComputedStyle(n).backgroundColor); if (c.length < 4 || c[3] > 0) bg = c; n = n.parentElement; }
  return {fg: rgb(getComputedStyle(key).color).slice(0, 3), bg: bg.slice(0, 3), opacity,
          mark: getComputedStyle(key, "::before").content};
}"""


def luminance(rgb) -> float:
    def channel(c: float) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_contrast_formula_matches_wcag():
    # WCAG's own reference points: black on white 21:1, a colour against itself 1:1, and
    # #767676 on white is the lightest grey that passes AA (4.54:1).
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast((200, 10, 10), (200, 10, 10)) == pytest.approx(1.0)
    assert contrast((0x76, 0x76, 0x76), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("shape", ["portrait", "landscape"])
def test_every_colour_key_reads_at_aa_contrast_chosen_or_not(server, phones, shape, scheme):
    owner = phones("owner", **SHAPES[shape], color_scheme=scheme)
    page = owner.page
    create_game(page, server.url, ["Ann", "Ben"])
    page.click("#new-round")
    page.locator("#winner-choices .winner-choice").filter(has_text="Ann").click()
    page.click(".rack-card[data-player='Ben'] .rack-tiles-toggle")
    keys = page.locator(".keypad .colour")
    expect(keys).to_have_count(4)
    for chosen in ("K", "B", "O", "R"):
        page.click(f".keypad .colour[data-colour='{chosen}']")
        for colour in ("K", "B", "O", "R"):
            key = page.locator(f".keypad .colour[data-colour='{colour}']")
            expect(key).to_have_attribute("aria-pressed", "true" if colour == chosen else "false")
            seen = key.evaluate(KEY_COLOURS)
            assert seen["opacity"] == 1, (colour, seen)
            ratio = contrast(seen["fg"], seen["bg"])
            assert ratio >= 4.5, f"{colour} ({'chosen' if colour == chosen else 'not chosen'}): {ratio:.2f}:1 {seen}"
            # The chosen key is marked by more than its colour: a tick.
            assert ("\u2713" in seen["mark"]) == (colour == chosen), seen["mark"]
        if chosen == "O":
            owner.shot("orange-chosen", full_page=False)
    # The number keys take the chosen colour (orange here is the darker, readable orange).
    page.click(".keypad .colour[data-colour='O']")
    page.click(".keypad .num[data-number='7']")
    expect(page.locator(".rack-card[data-player='Ben'] .notation")).to_have_text("O7")


def _background(page, selector: str):
    return page.locator(selector).first.evaluate(
        "(n) => getComputedStyle(n).backgroundColor.match(/[\\d.]+/g).slice(0, 3).map(Number)")


def _ink(page, selector: str):
    return page.locator(selector).first.evaluate(
        "(n) => getComputedStyle(n).color.match(/[\\d.]+/g).slice(0, 3).map(Number)")


@pytest.mark.parametrize("shape", ["portrait", "landscape"])
def test_pages_follow_the_phones_dark_mode(server, phones, shape):
    light = phones("light", **SHAPES[shape], color_scheme="light")
    dark = phones("dark", **SHAPES[shape], color_scheme="dark")
    gid = create_game(light.page, server.url, ["Ann", "Ben", "Cy"])
    dark.page.goto(f"{server.url}/games/{gid}")
    expect(dark.page.locator("#live")).to_have_attribute("data-state", "live")
    # The same page: light on a light phone, dark on a dark one, readable on both.
    assert luminance(_background(light.page, "body")) > 0.8
    assert luminance(_background(dark.page, "body")) < 0.02
    for phone in (light, dark):
        for selector in ("body", ".card h2", ".timer-clock", ".languages a"):
            assert contrast(_ink(phone.page, selector), _background(phone.page, "body")) >= 4.5, (phone.name, selector)
    assert luminance(_background(dark.page, ".card")) < 0.05  # the cards darken too
    meta = dark.page.locator("meta[name=theme-color][media*=dark]")
    expect(meta).to_have_attribute("content", re.compile(r"^#[0-9a-f]{6}$"))
    dark.shot("game")
    dark.page.goto(f"{server.url}/history")
    assert luminance(_background(dark.page, "body")) < 0.02
    dark.shot("history")
