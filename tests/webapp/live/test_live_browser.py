"""The live table page on a phone (Chromium through Playwright), held upright (390x844) and
sideways (844x390): the verdict is a headline with its reasons a tap away; the picture stays on
the screen with this turn's tiles marked and labels a person can read; the owner corrects a
tile with the tile keypad and declares an ambiguous joker; a viewer sees none of the owner's
controls; the log speaks in sentences; verdicts arrive by themselves. Screenshots are kept in
artifacts/browser/."""

from __future__ import annotations

import base64
import io
import json
import time
import urllib.request

import pytest

from tests.webapp.pages.conftest import Phone

pytestmark = pytest.mark.browser

PORTRAIT = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
SCREENS = [pytest.param(PORTRAIT, id="portrait"), pytest.param(LANDSCAPE, id="landscape")]

#: The camera's picture: 800x600, tiles 50x70 px (a tile is small in a picture of a table).
SIZE = (800, 600)


def _post(url, body, token):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json",
                                          "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def _get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def _picture() -> str:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", SIZE, (60, 120, 60)).save(buf, "PNG")
    return base64.b64encode(buf.getvalue()).decode()


def _snapshot(table: str) -> dict:
    """A camera's snapshot of ``table``: each meld on a row of its own, 50x70 px tiles."""
    tiles, melds = [], []
    for row, meld in enumerate(table.split("|")):
        melds.append([])
        for col, tile in enumerate(meld.split()):
            x, y = 250 + 56 * col, 150 + 100 * row
            melds[-1].append(len(tiles))
            tiles.append({"tile": tile, "confidence": 0.95,
                          "corners": [[x, y], [x + 50, y], [x + 50, y + 70], [x, y + 70]]})
    return {"reading": {"tiles": tiles, "melds": melds, "image_size": list(SIZE)},
            "picture": _picture()}


@pytest.fixture
def server(live_app):
    from webapp.testing import LiveServer

    srv = LiveServer(live_app)
    yield srv
    srv.stop()


@pytest.fixture
def phones(browser, request):
    made: list[Phone] = []

    def make(name: str, viewport: dict, **options) -> Phone:
        p = Phone(browser, name, request.node.name, viewport=viewport, **options)
        p.context.set_default_timeout(15000)  # a busy shared machine; the 2 s bound is explicit
        # The page never asks through a browser pop-up (no prompt(), alert() or confirm()).
        p.page.on("dialog", lambda d: (p.errors.append(f"{name}: a browser pop-up: {d.message}"),
                                       d.dismiss()))
        made.append(p)
        return p

    yield make
    errors = [e for p in made for e in p.errors]
    for p in made:
        p.close()
    assert not errors, "JavaScript errors on the page:\n" + "\n".join(errors)


@pytest.fixture
def table(server, game):
    """Post snapshots as the game's camera: ``table("K5 B5 O5")``."""
    api = server.url + game["api"]

    def post(notation: str, picture: bool = True):
        body = _snapshot(notation) if picture else {"reading": {"table": notation}}
        return _post(api + "/snapshots", body, game["token"])

    post.api = api
    return post


def _live(server, game, owner: bool) -> str:
    return f"{server.url}/games/{game['id']}/live" + (f"#token={game['token']}" if owner else "")


def _in_view(phone: Phone, locator) -> bool:
    """Is all of ``locator`` on the screen as the page opens (nothing scrolled)?"""
    box = locator.bounding_box()
    vp = phone.page.viewport_size
    return box is not None and box["x"] >= -0.5 and box["y"] >= -0.5 \
        and box["x"] + box["width"] <= vp["width"] + 0.5 \
        and box["y"] + box["height"] <= vp["height"] + 0.5


@pytest.mark.parametrize("screen", SCREENS)
def test_the_verdict_is_a_headline_with_reasons_a_tap_away(phones, server, game, table, screen):
    from playwright.sync_api import expect

    table("K5 B5 O5")
    table("K5 B5 O5 | B7 B8")   # Ann lays two tiles: not a meld, and far from 30 points
    phone = phones("owner", screen)
    phone.page.goto(_live(server, game, owner=True))
    page = phone.page
    headline = page.locator("#lv-headline")
    expect(headline).to_have_text("Not valid: B7 B8 is only 2 tiles")
    assert _in_view(phone, headline)
    expect(page.locator(".lv-who")).to_have_text("Turn 1 · Ann")
    # The reasons and the penalty wait behind one tap, not on the first screen.
    reasons = page.locator("#lv-why .lv-reasons")
    expect(reasons).to_be_hidden()
    phone.shot("closed", full_page=False)
    page.locator("#lv-why > summary").click()
    expect(reasons).to_be_visible()
    expect(reasons.locator("li")).to_have_text(["B7 B8 is only 2 tiles",
                                                "the initial meld is worth 0 points, 30 are needed"])
    expect(page.locator(".lv-penalty")).to_contain_text(
        "Put the table back as it was, take back the tiles laid and draw 3 tiles.")
    # Plain words: none of the command line's multi-line summary.
    assert "- " not in page.locator("#lv-verdict").inner_text()
    expect(page.locator("#lv-restore")).to_have_text(
        "Put the table back as it was before the last turn.")
    phone.shot("reasons", full_page=False)


@pytest.mark.parametrize("screen", SCREENS)
def test_the_picture_stays_in_view_with_this_turns_tiles_marked(phones, server, game, table,
                                                                screen):
    from playwright.sync_api import expect

    table("K5 B5 O5")
    table("K5 B5 O5 | R10 R11 R12")   # Ann opens with 33
    phone = phones("viewer", screen)
    page = phone.page
    page.goto(_live(server, game, owner=False))
    expect(page.locator("#lv-headline")).to_have_text(
        "Valid: Ann opened with R10 R11 R12 (33 points)")
    stage = page.locator("#lv-stage")
    expect(stage.locator("svg image")).to_have_count(1)
    assert _in_view(phone, stage), "the picture is on the first screen"
    assert _in_view(phone, page.locator("#lv-headline")), "beside the verdict"
    added = page.locator(".lv-t.lv-added")
    expect(added).to_have_count(3)
    assert sorted(added.evaluate_all("els => els.map(e => e.dataset.tile)")) == \
        ["R10", "R11", "R12"]
    expect(page.locator(".lv-t:not(.lv-added)")).to_have_count(3)
    expect(page.locator(".lv-legend")).to_contain_text("laid this turn")
    for i in range(6):
        tile = page.locator(f".lv-t[data-index='{i}']")
        assert _in_view(phone, tile.locator("polygon"))
        label = tile.locator("text").bounding_box()
        assert label["height"] >= 12, f"tile {i}: its label is {label['height']:.1f} px high"
    phone.shot("picture", full_page=False)


@pytest.mark.parametrize("screen", SCREENS)
def test_the_owner_corrects_a_tile_with_the_keypad(phones, server, game, table, screen):
    from playwright.sync_api import expect

    table("K5 B5 O5")
    table("K5 B5 O5 | R10 R1 R12")   # the camera read R11 as R1
    phone = phones("owner", screen)
    page = phone.page
    page.goto(_live(server, game, owner=True))
    expect(page.locator("#lv-headline")).to_have_text(
        "Not valid: R10 R1 R12 is not a run: the numbers must follow each other")
    page.locator(".lv-t[data-tile='R1']").click()
    pad = page.locator("#lv-keypad")
    expect(pad).to_be_visible()
    expect(page.locator("#lv-kp-from")).to_have_text("R1")
    # The colour of the tile read is picked already; the number is one tap.
    expect(pad.locator(".colour[data-colour='R']")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#lv-kp-save")).to_be_disabled()
    pad.locator(".num[data-number='11']").click()
    expect(page.locator("#lv-kp-to")).to_have_text("R11")
    assert _in_view(phone, page.locator("#lv-kp-save"))
    phone.shot("keypad", full_page=False)
    page.locator("#lv-kp-save").click()
    expect(pad).to_be_hidden()
    expect(page.locator("#lv-headline")).to_have_text(
        "Valid: Ann opened with R10 R11 R12 (33 points)")
    # The stored reading changed, and the correction is kept with the turn.
    turn = _get(table.api + "/turns/1")
    assert [t["tile"] for t in turn["after"]["tiles"]][3:] == ["R10", "R11", "R12"]
    assert turn["after"]["table"] == "K5 B5 O5 | R10 R11 R12"
    assert turn["legal"] is True
    assert turn["corrections"][0]["from"] == "R1" and turn["corrections"][0]["to"] == "R11"
    phone.shot("corrected", full_page=False)
    # End turn reaches the server, and says it is waiting for the camera.
    page.locator("#lv-end-turn").click()
    expect(page.locator("#lv-end-turn")).to_have_text("Reading the table…")
    assert _get(table.api)["end_turn"]


@pytest.mark.parametrize("screen", SCREENS)
def test_a_viewer_sees_no_owner_control_and_verdicts_arrive_by_themselves(
        phones, server, game, table, screen):
    from playwright.sync_api import expect

    table("K5 B5 O5")
    table("K5 B5 O5 | K1 J J | R10 R11 R12")   # Ann opens; what do the jokers stand for?
    phone = phones("viewer", screen)
    page = phone.page
    page.goto(_live(server, game, owner=False))
    expect(page.locator("#lv-headline")).to_contain_text("Valid: Ann opened with")
    # The joker's assumption is said to everyone; only the owner may declare it.
    expect(page.locator(".lv-joker")).to_contain_text("Assumed: the jokers in K1 J J stand for")
    for control in ("#lv-end-turn", "#lv-tools", "#lv-reset", "#lv-next-form", "#lv-rack-form",
                    ".lv-declare", ".lv-option", ".lv-bar"):
        expect(page.locator(control).first).to_be_hidden()
    expect(page.get_by_text("Tap a misread tile to correct it.")).to_be_hidden()
    page.locator(".lv-t[data-tile='K5']").click()
    expect(page.locator("#lv-keypad")).to_be_hidden()
    assert page.locator(".lv-t[role=button]").count() == 0
    phone.shot("viewer", full_page=False)
    # The next turns reach the viewer's page by themselves, within 2 s of the verdict being
    # stored (the better of two: a busy shared machine may stall one delivery).
    time.sleep(0.5)  # the page's event stream is open
    took = []
    table("K5 B5 O5 | K1 J J | R10 R11 R12 | B3")               # Ben
    t0 = time.monotonic()
    expect(page.locator("#lv-headline")).to_have_text("Not valid: B3 is only 1 tile")
    took.append(time.monotonic() - t0)
    expect(page.locator("#lv-next")).to_have_text("Cy")
    table("K5 B5 O5 | K1 J J | R10 R11 R12")                    # put back
    table("K5 B5 O5 | K1 J J | R10 R11 R12 | B7 B8")            # Cy
    t0 = time.monotonic()
    expect(page.locator("#lv-headline")).to_have_text("Not valid: B7 B8 is only 2 tiles")
    took.append(time.monotonic() - t0)
    assert min(took) < 2.0, took
    expect(page.locator("#lv-next")).to_have_text("Ann")
    expect(page.locator("#lv-end-turn")).to_be_hidden()
    phone.shot("viewer-next", full_page=False)


@pytest.mark.parametrize("screen", SCREENS)
def test_the_owner_declares_an_ambiguous_joker(phones, server, game, table, screen):
    from playwright.sync_api import expect

    table("K5 B5 O5")
    table("K5 B5 O5 | K1 J J | R10 R11 R12")
    phone = phones("owner", screen)
    page = phone.page
    page.goto(_live(server, game, owner=True))
    # K1 J J: the run K1 K2 K3 (worth 6) or a group of ones (worth 3): the verdict took the
    # reading worth most and says so.
    joker = page.locator(".lv-joker")
    expect(joker).to_contain_text("Assumed: the jokers in K1 J J stand for K2 K3.")
    expect(page.locator("#lv-headline")).to_have_text(
        "Valid: Ann opened with K1 R10 R11 R12 J J (39 points)")
    options = joker.locator(".lv-option")
    # A group's jokers may lie in any order: each pair of colours is offered once.
    assert options.all_inner_texts() == ["K2 K3 (a run)", "B1 O1 (a group)", "B1 R1 (a group)",
                                         "O1 R1 (a group)"]
    joker.scroll_into_view_if_needed()
    phone.shot("assumed", full_page=False)
    joker.get_by_text("B1 O1 (a group)").click()
    expect(joker).to_contain_text("Declared: the jokers in K1 J J stand for B1 O1.")
    expect(page.locator("#lv-headline")).to_have_text(
        "Valid: Ann opened with K1 R10 R11 R12 J J (36 points)")
    turn = _get(table.api + "/turns/1")
    assert turn["verdict"]["declared"] == {"1": "B1 O1"}
    assert turn["corrections"][-1]["kind"] == "declaration"
    phone.shot("declared", full_page=False)
    # ... and taken back: the assumption again.
    joker.get_by_text("Take the declaration back").click()
    expect(joker).to_contain_text("Assumed: the jokers in K1 J J stand for K2 K3.")
    assert _get(table.api + "/turns/1")["verdict"]["declared"] == {}


@pytest.mark.parametrize("screen", SCREENS)
def test_the_log_speaks_in_sentences(phones, server, game, table, screen):
    from playwright.sync_api import expect

    table("K5 B5 O5", picture=False)
    table("K5 B5 O5 | B7 B8", picture=False)
    table("K5 B5 O5", picture=False)                  # the table put back
    table("K5 B5 O5 | R10 R11 R12", picture=False)    # Ben opens
    phone = phones("viewer", screen)
    page = phone.page
    page.goto(f"{server.url}/games/{game['id']}/live/log")
    items = page.locator("#lv-log > li")
    expect(items).to_have_count(2)
    expect(items.nth(0).locator("h2")).to_have_text("Turn 2 · Ben")
    expect(items.nth(0).locator(".lv-headline")).to_have_text(
        "Valid: Ben opened with R10 R11 R12 (33 points)")
    expect(items.nth(1).locator(".lv-headline")).to_have_text("Not valid: B7 B8 is only 2 tiles")
    expect(items.nth(1)).to_contain_text("Read when the table had been still for a moment.")
    text = page.locator("#lv-log").inner_text()
    assert "Ben still" not in text and "Ann still" not in text
    phone.shot("log")


def test_the_page_speaks_the_phones_language(phones, server, game, table):
    from playwright.sync_api import expect

    table("K5 B5 O5", picture=False)
    table("K5 B5 O5 | B7 B8", picture=False)
    phone = phones("owner", PORTRAIT, locale="de-DE")
    page = phone.page
    page.goto(_live(server, game, owner=True))
    expect(page.locator("#lv-headline")).to_have_text("Ungültig: B7 B8 sind nur 2 Steine")
    expect(page.locator("#lv-end-turn")).to_have_text("Zug beenden")
    assert page.locator("html").get_attribute("lang") == "de"
    # A table typed in notation (no outlines) is drawn as rows of tiles, the new ones marked.
    expect(page.locator(".lv-chip.lv-added")).to_have_count(2)
    phone.shot("de", full_page=False)


def test_the_dispute_view_corrects_with_the_keypad(phones, server, game, table):
    from playwright.sync_api import expect

    table("", picture=False)
    table("R7 R3 R9 R10", picture=False)   # R8 read as R3
    phone = phones("owner", PORTRAIT)
    page = phone.page
    page.goto(f"{server.url}/games/{game['id']}/live/turns/1#token={game['token']}")
    expect(page.locator("#lv-solver")).to_contain_text("No: restore the table")
    page.click("button.lv-tile[data-side=after][data-index='1']")
    page.locator("#lv-keypad .num[data-number='8']").click()
    page.locator("#lv-kp-save").click()
    expect(page.locator("#lv-headline")).to_contain_text("Valid", timeout=5000)
    expect(page.locator("body")).to_contain_text("R3 corrected to R8")
    phone.shot("dispute")


def test_a_doubtful_rack_photo_is_shown_row_by_row_with_the_tiles_to_check(
        phones, server, game, live_app, tmp_path):
    """A rack of two rows read with three R10s (a set has two) and a doubtful tile: the page
    shows each row as it stands (back row first), which tiles to check, and what each more
    likely is, in the phone's language; nothing is refused."""
    from PIL import Image
    from playwright.sync_api import expect

    from vision.reading import Reading

    def tile(t, x, y, c=0.95, alts=()):
        return {"tile": t, "confidence": c, "alternatives": [[a, 0.2] for a in alts],
                "corners": [[x, y], [x + 40, y], [x + 40, y + 56], [x, y + 56]]}

    # a reader test double: this test is about what the phone shows of a doubtful rack
    live_app.extensions["rummiref_live"]["reader"] = lambda image: Reading.from_json({
        "tiles": [tile("R10", 0, 80, alts=("R1",)), tile("K5", 45, 82),
                  tile("R10", 90, 80, 0.55, alts=("R1", "R11")),
                  tile("R10", 0, 0), tile("B7", 45, 2)],
        "melds": [[0, 1, 2], [3, 4]]})
    photo = tmp_path / "rack.png"
    Image.new("RGB", (80, 60), (200, 200, 200)).save(photo)

    phone = phones("owner", PORTRAIT, locale="de-DE")
    page = phone.page
    page.goto(_live(server, game, owner=True))
    page.click("details.lv-rack > summary")
    page.set_input_files("#lv-rack-form input[name=photo]", str(photo))
    page.click("#lv-rack-form button[type=submit]")
    expect(page.locator("#lv-rack-tiles")).to_have_text("R10 B7 R10 K5 R10")
    expect(page.locator("#lv-rack-rows li")).to_have_text(
        ["Hintere Reihe: R10 B7", "Vordere Reihe: R10 K5 R10"])
    expect(page.locator("#lv-rack-unsure")).to_have_text(
        "Bitte prüfen, die Kamera war unsicher: R10 R10 R10")
    # the three copies, in rack order; K5 and B7 are sure and unique, so not listed
    expect(page.locator("#lv-rack-doubts li")).to_have_text([
        "Stein 3, gelesen als R10: vielleicht R1",
        "Stein 5, gelesen als R10: vielleicht R1 oder R11"])
    phone.shot("rack-doubts", full_page=False)

    # one sure row: no rows list, no doubts
    live_app.extensions["rummiref_live"]["reader"] = lambda image: Reading.from_json({
        "tiles": [tile("R1", 0, 0), tile("R2", 45, 0)], "melds": [[0, 1]]})
    page.click("#lv-rack-form button[type=submit]")
    expect(page.locator("#lv-rack-tiles")).to_have_text("R1 R2")
    expect(page.locator("#lv-rack-rows")).to_be_hidden()
    expect(page.locator("#lv-rack-doubts")).to_be_hidden()
    expect(page.locator("#lv-rack-unsure")).to_have_text("")
    # the rack just read goes to the hint: before the first turn, nobody has opened, and R1 R2
    # (3 points) are far from an initial meld of 30 (003)
    page.click("#lv-rack-hint")
    expect(page.locator("#lv-hint-form input[name=rack]")).to_have_value("R1 R2")
    expect(page.locator("#lv-hint-headline")).to_have_text(
        "Mit dieser Bank ist keine erste Auslage von 30 Punkten möglich: einen Stein ziehen.")


@pytest.mark.parametrize("screen", SCREENS)
def test_any_phone_gets_the_best_play_for_a_typed_rack_as_steps(phones, server, game, table,
                                                                 screen):
    """A viewer (no edit token) types Ann's rack: the page tells the play as numbered steps
    and the table after it; a bad tile is answered in the card, and nothing else changes.
    003: a joker is taken "by placing it with a tile of the same numerical value and colour
    it represents" and "must be used in the player's same turn as part of a new set"."""
    from playwright.sync_api import expect

    table("K5 B5 O5")
    table("K5 B5 O5 | R4 J R6 | K10 B10 O10")   # Ann opens (15 + 30 points); Ben is next
    phone = phones("viewer", screen)
    page = phone.page
    page.goto(_live(server, game, owner=False))
    expect(page.locator("#lv-headline")).to_contain_text("Valid: Ann opened with")
    page.click("details.lv-hint > summary")
    expect(page.locator("#lv-hint-form select[name=player]")).to_have_value("Ben")
    page.select_option("#lv-hint-form select[name=player]", "Ann")
    field = page.locator("#lv-hint-form input[name=rack]")
    # a phone zooms into a field whose text is under 16 px; a finger needs about 44 px
    assert float(field.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 16
    assert field.bounding_box()["height"] >= 44
    field.fill("R5 K9 B9")
    page.click("#lv-hint-form button[type=submit]")
    expect(page.locator("#lv-hint-headline")).to_have_text("Play K9 B9 R5: 3 tiles.")
    expect(page.locator("#lv-hint-steps li")).to_have_text(
        ["Swap the joker in R4 J R6 for your R5, then lay it with K9 B9."])
    expect(page.locator("#lv-hint-table span")).to_contain_text("R4 R5 R6")
    expect(page.locator("#lv-hint-note")).to_be_hidden()
    phone.shot("hint", full_page=False)
    # an impossible tile: said in the card, the last answer taken away
    page.fill("#lv-hint-form input[name=rack]", "R14")
    page.click("#lv-hint-form button[type=submit]")
    expect(page.locator("#lv-hint-message")).to_have_text("'R14': tile numbers run from 1 to 13")
    expect(page.locator("#lv-hint-result")).to_be_hidden()
    # the hint changed nothing: the verdict and whose turn it is are as they were
    expect(page.locator("#lv-next")).to_have_text("Ben")
    assert _get(table.api)["turns"] == 1
