"""The end of a game on the phones (390x844, and the owner's phone turned to landscape): a
target chosen at the start, the winner screen on every phone, the result shared as text or as a
picture, a rematch, the owner renaming and deleting the game (after a question), the history
page readable on a phone."""

from __future__ import annotations

from tests.webapp.pages.browser_helpers import api_get, create_game, enter_round, expect

LANDSCAPE = {"viewport": {"width": 844, "height": 390}}

# Share sheets as a phone has them, recording what they are given (headless Chromium has none).
SHARE_STUB = """
window.__shared = [];
navigator.share = async (data) => {
  const files = [];
  for (const f of (data.files || [])) files.push({name: f.name, type: f.type, size: f.size,
      head: Array.from(new Uint8Array(await f.slice(0, 8).arrayBuffer()))});
  window.__shared.push({title: data.title, text: data.text, url: data.url, files});
};
navigator.canShare = (data) => true;
"""


def start_with_target(page, url, players, kind, value):
    page.goto(url + "/")
    rows = page.locator("#player-rows input[name=player]")
    for i, name in enumerate(players):
        rows.nth(i).fill(name)
    page.locator(f"#target .target-value[data-kind='{kind}']").fill(str(value))  # picks it
    expect(page.locator(f"#target input[type=radio][value='{kind}']")).to_be_checked()
    page.click("#start-game")
    page.wait_for_selector("#live[data-state=live]")
    return page.url.split("/games/")[1].split("#")[0]


def test_a_game_played_to_a_target_ends_on_every_phone_and_has_a_rematch(server, phones):
    owner, viewer = phones("owner"), phones("viewer")
    owner_land = phones("owner-landscape", **LANDSCAPE)
    page = owner.page
    page.add_init_script(SHARE_STUB)
    # A target that is not a number is refused before anything is created.
    page.goto(server.url + "/")
    rows = page.locator("#player-rows input[name=player]")
    rows.nth(0).fill("Ann")
    rows.nth(1).fill("Ben")
    page.locator("#target .target-value[data-kind='points']").fill("0")
    page.click("#start-game")
    expect(page.locator("#start-error")).to_have_text("Play to 1 to 100000 points: type a whole number.")
    assert api_get(server.url, "/api/games")["total"] == 0

    gid = start_with_target(page, server.url, ["Ann", "Ben", "Cy"], "points", 30)
    expect(page.locator("#target-line")).to_have_text("Played to 30 points")
    viewer.page.goto(f"{server.url}/games/{gid}")
    expect(viewer.page.locator("#live")).to_have_attribute("data-state", "live")
    token = page.evaluate(f"localStorage.getItem('rummiref:token:{gid}')")
    owner_land.page.goto(f"{server.url}/games/{gid}#token={token}")

    enter_round(page, "Ann", {"Ben": 12, "Cy": 7})          # Ann +19
    expect(page.locator("#round-1")).to_be_attached()
    expect(page.locator("#winner")).to_have_count(0)
    enter_round(page, "Ann", {"Ben": 5, "Cy": 9})           # Ann +33: over
    for p in (page, viewer.page, owner_land.page):
        expect(p.locator("#winner h2")).to_have_text("Ann wins")
        expect(p.locator("#winner .winner-detail")).to_have_text("2 rounds \u00b7 played to 30 points")
        expect(p.locator("#winner .podium li.won .name")).to_have_text("Ann")
    expect(page.locator("#new-round")).to_be_hidden()
    expect(page.locator("#game-over-note")).to_be_visible()
    expect(viewer.page.locator("#winner .rematch")).to_be_hidden()   # owners only
    page.locator("#winner").scroll_into_view_if_needed()
    owner.shot("winner", full_page=False)
    owner_land.page.locator("#winner").scroll_into_view_if_needed()
    owner_land.shot("winner-landscape", full_page=False)
    viewer.shot("winner")

    # The result as text: the phone's share sheet gets the standings and the viewer link.
    page.click("#winner .share-result")
    page.wait_for_function("() => window.__shared.length === 1")
    shared = page.evaluate("window.__shared[0]")
    assert shared["text"].splitlines() == ["Ann \u00b7 Ben \u00b7 Cy: Ann wins!",
                                           "2 rounds \u00b7 played to 30 points",
                                           "1. Ann +33", "2. Cy \u221216", "3. Ben \u221217"]
    assert shared["url"] == f"{server.url}/games/{gid}"
    # ... and as a picture: a PNG file.
    page.click("#winner .share-picture")
    page.wait_for_function("() => window.__shared.length === 2")
    picture = page.evaluate("window.__shared[1]")["files"][0]
    assert picture["type"] == "image/png" and picture["name"] == f"rummiref-{gid}.png"
    assert picture["head"] == [137, 80, 78, 71, 13, 10, 26, 10] and picture["size"] > 2000

    # Rematch: a new game, same players and target, this phone still the owner.
    page.click("#winner .rematch")
    page.wait_for_url(lambda u: gid not in u)
    new_gid = page.url.split("/games/")[1].split("#")[0]
    expect(page.locator("#role")).to_have_text("You can edit")
    expect(page.locator("#game-title bdi")).to_have_text(["Ann", "Ben", "Cy"])
    expect(page.locator("#target-line")).to_have_text("Played to 30 points")
    expect(page.locator("#new-round")).to_be_visible()
    expect(page.locator("#winner")).to_have_count(0)
    # The old game's phones are pointed to it.
    for p in (viewer.page, owner_land.page):
        expect(p.locator("#winner a.rematch-link")).to_have_attribute("href", f"/games/{new_gid}")
    viewer.page.click("#winner a.rematch-link")
    expect(viewer.page.locator("#role")).to_have_text("View only")
    owner.shot("rematch")


def test_sharing_without_a_share_sheet_copies_the_text_and_saves_the_picture(server, phones):
    owner = phones("owner", permissions=["clipboard-read", "clipboard-write"])
    page = owner.page
    gid = start_with_target(page, server.url, ["Ann", "Ben"], "rounds", 1)
    enter_round(page, "Ben", {"Ann": 6})
    expect(page.locator("#winner h2")).to_have_text("Ben wins")
    page.click("#winner .share-result")
    expect(page.locator("#winner .share-status")).to_have_text("Copied: paste it into a message.")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.splitlines()[0] == "Ann \u00b7 Ben: Ben wins!"
    assert copied.splitlines()[-1] == f"{server.url}/games/{gid}"
    with page.expect_download() as dl:
        page.click("#winner .share-picture")
    assert dl.value.suggested_filename == f"rummiref-{gid}.png"
    from PIL import Image

    img = Image.open(dl.value.path())
    assert img.format == "PNG" and img.width == 720
    expect(page.locator("#winner .share-status")).to_have_text(f"The picture was saved as rummiref-{gid}.png.")


def test_the_owner_renames_retargets_and_deletes_after_a_question(server, phones):
    owner, viewer = phones("owner"), phones("viewer")
    page = owner.page
    gid = create_game(page, server.url, ["Ann", "Ben"])
    viewer.page.goto(f"{server.url}/games/{gid}")
    expect(viewer.page.locator("#live")).to_have_attribute("data-state", "live")
    expect(viewer.page.locator("#settings")).to_be_hidden()     # not the owner: no settings
    enter_round(page, "Ann", {"Ben": 8})
    expect(page.locator("#round-1")).to_be_attached()

    page.locator("#settings summary").click()
    page.fill("#settings-title", "Friday at Ann's")
    page.locator("#settings-target .target-value[data-kind='rounds']").fill("1")
    page.click("#settings-save")
    expect(page.locator("#settings-saved")).to_have_text("Saved.")
    for p in (page, viewer.page):
        expect(p.locator("#game-title")).to_have_text("Friday at Ann's")
        expect(p.locator("#players-sub")).to_have_text("Ann \u00b7 Ben")
        expect(p.locator("#target-line")).to_have_text("Played to 1 round")
        expect(p.locator("#winner h2")).to_have_text("Ann wins")   # one round played: over
    assert viewer.page.title() == "Friday at Ann's \u00b7 rummiref"
    # A bad target is refused on the phone, nothing sent.
    page.locator("#settings-target .target-value[data-kind='rounds']").fill("5000")
    page.click("#settings-save")
    expect(page.locator("#settings-error")).to_have_text("Play 1 to 1000 rounds: type a whole number.")
    assert api_get(server.url, f"/api/games/{gid}")["target"] == {"kind": "rounds", "value": 1}
    owner.shot("settings")

    # Delete asks first; "Keep it" keeps it.
    page.click("#delete-game")
    dialog = page.locator("dialog.confirm")
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_have_text("Delete this game?")
    expect(dialog).to_contain_text("The game of Ann and Ben with 1 round, and its change log, are removed")
    owner.shot("delete-question", full_page=False)
    dialog.locator("button", has_text="Keep it").click()
    expect(dialog).to_have_count(0)
    assert api_get(server.url, f"/api/games/{gid}")["id"] == gid
    page.click("#delete-game")
    page.locator("dialog.confirm button", has_text="Delete the game").click()
    page.wait_for_url(f"{server.url}/history?deleted=1")
    expect(page.locator(".notice")).to_have_text("The game was deleted.")
    expect(page.locator(".past-game")).to_have_count(0)
    assert page.evaluate(f"localStorage.getItem('rummiref:token:{gid}')") is None
    # The viewer's phone is told at once.
    expect(viewer.page.locator("#deleted-note")).to_be_visible()
    expect(viewer.page.locator("#live")).to_have_text("deleted")
    viewer.shot("deleted")


def test_history_headers_never_break_inside_a_word_on_a_phone(server, phones):
    owner = phones("owner")
    page = owner.page
    long = "Maximiliane-Friederike Oberhausen"
    gid = create_game(page, server.url, [long, "Ben", "Cy"])
    enter_round(page, "Ben", {long: 120, "Cy": 7})
    expect(page.locator("#round-1")).to_be_attached()
    page.goto(server.url + "/history")
    expect(page.locator("table.records tr[data-player]")).to_have_count(3)
    # Every word of every header lies on one line (a word broken over two lines has two boxes).
    broken = page.evaluate("""() => {
      const out = [];
      for (const th of document.querySelectorAll('table.records th')) {
        const walk = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
        for (let node = walk.nextNode(); node; node = walk.nextNode()) {
          let at = 0;
          for (const w of node.textContent.split(' ')) {
            const r = document.createRange();
            r.setStart(node, at); r.setEnd(node, at + w.length);
            const lines = new Set(Array.from(r.getClientRects(), (b) => Math.round(b.top)));
            if (lines.size > 1) out.push(w);
            at += w.length + 1;
          }
        }
      }
      return out;
    }""")
    assert broken == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    heights = page.evaluate("Array.from(document.querySelectorAll('table.records th'), (t) => t.getBoundingClientRect().height)")
    assert max(heights) < 40   # at most two lines
    owner.shot("history")
    owner_land = phones("landscape", **LANDSCAPE)
    owner_land.page.goto(server.url + "/history")
    assert owner_land.page.evaluate("document.documentElement.scrollWidth") <= 844
    owner_land.shot("history-landscape")
    assert page.locator(f"a[href='/games/{gid}']").count() == 1


def test_a_round_of_tiles_keeps_its_total_when_edited(server, phones):
    owner = phones("owner")
    page = owner.page
    create_game(page, server.url, ["Ann", "Ben", "Cy"])
    enter_round(page, "Ann", {"Ben": "O1 O6 O9", "Cy": 4})
    expect(page.locator("#round-1")).to_be_attached()
    page.locator("#round-1 > summary").click()
    page.click("#round-1 .edit-round")
    card = page.locator(".rack-card[data-player='Ben']")
    expect(card.locator(".notation")).to_have_text("O1 O6 O9")
    expect(card.locator(".preview")).to_have_text("3 tiles = 16 points")
    expect(card.locator(".rack-points")).to_have_value("16")
    owner.shot("edit-tiles", full_page=False)
    page.click("#entry-save")
    expect(page.locator("#entry")).to_be_hidden()
    assert api_get(server.url, page.url.split(server.url)[1].replace("/games/", "/api/games/"))[
        "rounds"][0]["racks"]["Ben"] == "O1 O6 O9"


def test_the_notation_line_shows_orange_tiles_as_o_not_zero(server, phones):
    owner = phones("owner")
    page = owner.page
    create_game(page, server.url, ["Ann", "Ben"])
    enter_round(page, "Ann", {"Ben": "O1 O6 O9 O10"}, save=False)
    notation = page.locator(".rack-card[data-player='Ben'] .notation")
    expect(notation).to_have_text("O1 O6 O9 O10")
    expect(notation.locator(".t.c-O")).to_have_count(4)
    font = notation.evaluate("(n) => getComputedStyle(n).fontFamily")
    assert "mono" not in font.lower()
    # In the page's font the letter O is wider than the digit 0: they cannot be taken for each other.
    widths = notation.evaluate("""(n) => ['O', '0'].map((c) => {
      const s = document.createElement('span'); s.textContent = c; n.append(s);
      const w = s.getBoundingClientRect().width; s.remove(); return w; })""")
    assert widths[0] > widths[1] * 1.15, widths
    owner.shot("notation", full_page=False)


def test_a_loser_with_an_empty_rack_is_asked_about(server, phones):
    owner = phones("owner")
    page = owner.page
    gid = create_game(page, server.url, ["Ann", "Ben", "Cy"])
    enter_round(page, "Ann", {"Ben": 0, "Cy": 5})
    dialog = page.locator("dialog.confirm")
    expect(dialog.locator("h2")).to_have_text("Ben's rack is 0")
    expect(dialog).to_contain_text("Did Ben really have no tiles left? Only Ann, who went out, should have none.")
    owner.shot("zero-rack", full_page=False)
    dialog.locator("button", has_text="No, let me fix it").click()
    expect(dialog).to_have_count(0)
    expect(page.locator(".rack-card[data-player='Ben'] .rack-points")).to_be_focused()
    assert api_get(server.url, f"/api/games/{gid}")["rounds"] == []
    page.keyboard.type("3")   # the 0 is selected: typing replaces it
    page.click("#entry-save")
    expect(page.locator("#round-1")).to_be_attached()
    # Nobody went out and two racks are empty: asked once, about both; yes saves.
    enter_round(page, None, {"Ann": 0, "Ben": 0, "Cy": 4})
    expect(dialog.locator("h2")).to_have_text("Ann and Ben have 0 on their racks")
    dialog.locator("button", has_text="Yes, save it").click()
    expect(page.locator("#round-2")).to_be_attached()
    assert api_get(server.url, f"/api/games/{gid}")["rounds"][1]["racks"] == {"Ann": 0, "Ben": 0, "Cy": 4}
