"""Helpers the browser tests share: driving the phone UI the way a player does."""

from __future__ import annotations

import re

try:
    from playwright.sync_api import expect
except ImportError:  # the `browser` fixture fails with the install hint before any test runs
    expect = None


def create_game(page, base_url: str, players: list[str], preset: str | None = None,
                device: str | None = None) -> str:
    """Fill in the start page and start the game; returns the game id (from the sheet's URL)."""
    page.goto(base_url + "/")
    rows = page.locator("#player-rows input[name=player]")
    while rows.count() < len(players):
        page.click("#add-player")
    for i, name in enumerate(players):
        rows.nth(i).fill(name)
    if preset:
        page.check(f"input[name=rules][value='{preset}']")
    if device:
        page.fill("#device-name", device)
    page.click("#start-game")
    page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]+"))
    page.wait_for_selector("#live[data-state=live]")
    return page.url.split("/games/")[1].split("#")[0].split("?")[0]


def enter_round(page, winner: str | None, racks: dict[str, object], save: bool = True) -> None:
    """Enter a round through the phone UI. A rack given as ``int`` is typed as points; a ``str``
    is tapped on the tile keypad (``"R5 K13 J"``)."""
    page.click("#new-round")
    if winner is None:
        page.click("#winner-choices .nobody")
    else:
        page.locator("#winner-choices .winner-choice").filter(has_text=winner).first.click()
    for player, rack in racks.items():
        if isinstance(rack, int):
            page.locator(f".rack-card[data-player='{_css(player)}'] .rack-points").fill(str(rack))
        else:
            tap_tiles(page, player, rack)
    if save:
        page.click("#entry-save")


def tap_tiles(page, player: str, tiles: str) -> None:
    card = f".rack-card[data-player='{_css(player)}']"
    page.click(f"{card} .rack-tiles-toggle")
    for tile in tiles.split():
        if tile == "J":
            page.click(f"{card} .keypad .num.joker")
        else:
            page.click(f"{card} .keypad .colour[data-colour='{tile[0]}']")
            page.click(f"{card} .keypad .num[data-number='{tile[1:]}']")
    page.click(f"{card} .rack-tiles-toggle")  # "Done": closes the keypad


def _css(value: str) -> str:
    return value.replace("\\", "\\\\").replace("'", "\\'")


def api_get(base_url: str, path: str) -> dict:
    import json
    import urllib.request

    with urllib.request.urlopen(base_url + path, timeout=5) as r:
        return json.loads(r.read().decode())
