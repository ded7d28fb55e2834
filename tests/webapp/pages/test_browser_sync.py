"""Several phones on one game: viewers read only, and every phone sees a new round at once."""

from __future__ import annotations

import time

from tests.webapp.pages.browser_helpers import api_get, create_game, enter_round, expect


def test_second_phone_sees_new_round_within_a_second(server, phones):
    owner, viewer = phones("owner"), phones("viewer")
    gid = create_game(owner.page, server.url, ["Ann", "Ben", "Cy", "Dee"])

    # The viewer opens the share link (no token): everything is shown, nothing can be changed.
    viewer.page.goto(f"{server.url}/games/{gid}")
    expect(viewer.page.locator("#live")).to_have_attribute("data-state", "live")
    expect(viewer.page.locator("#role")).to_have_text("View only")
    expect(viewer.page.locator("#new-round")).to_be_hidden()
    expect(viewer.page.locator(".timer-buttons")).to_be_hidden()
    assert viewer.page.evaluate(f"localStorage.getItem('rummiref:token:{gid}')") is None

    # Everything typed in; from the tap on Save, the viewer must show the round within a second
    # (the POST, the event, and the viewer's refetch of the sheet), without reloading.
    enter_round(owner.page, "Ben", {"Ann": 7, "Cy": 3, "Dee": "R1 R2"}, save=False)
    t0 = time.perf_counter()
    owner.page.click("#entry-save")
    viewer.page.wait_for_selector("#round-1", state="attached", timeout=5000)
    lags = [time.perf_counter() - t0]
    expect(owner.page.locator("#round-1")).to_be_attached()
    expect(viewer.page.locator("#round-1 > summary .score[data-player='Ben']")).to_have_text("+13")
    expect(viewer.page.locator(".ranking li .name").first).to_have_text("Ben")
    # The viewer can open a round's details but gets no edit or undo buttons.
    viewer.page.locator("#round-1 > summary").click()
    expect(viewer.page.locator("#round-1 .edit-round")).to_be_hidden()
    expect(viewer.page.locator("#round-1 .undo-round")).to_be_hidden()
    viewer.shot("after-round-1")

    # Edits and undos reach the viewer too.
    owner.page.locator("#round-1 > summary").click()
    owner.page.click("#round-1 .edit-round")
    owner.page.locator(".rack-card[data-player='Ann'] .rack-points").fill("9")
    t0 = time.perf_counter()
    owner.page.click("#entry-save")
    expect(viewer.page.locator("#round-1 > summary .score[data-player='Ben']")).to_have_text("+15", timeout=5000)
    lags.append(time.perf_counter() - t0)
    print("tap on Save -> the second phone shows it: " + ", ".join(f"{x * 1000:.0f} ms" for x in lags))
    # Within a second; a busy 2-core test machine may stall one of the two, never both.
    assert min(lags) < 1.0 and max(lags) < 2.5
    expect(viewer.page.locator("#round-1")).to_have_attribute("open", "")  # kept open across the refresh

    # A viewer that loses the connection catches up by itself when it is back.
    viewer.context.set_offline(True)
    enter_round(owner.page, None, {"Ann": 5, "Ben": 6, "Cy": 7, "Dee": 8})
    expect(owner.page.locator("#round-2")).to_be_attached()
    time.sleep(0.3)
    expect(viewer.page.locator("#round-2")).to_have_count(0)
    viewer.context.set_offline(False)
    expect(viewer.page.locator("#round-2")).to_be_attached(timeout=8000)
    expect(viewer.page.locator("#live")).to_have_attribute("data-state", "live")
    assert api_get(server.url, f"/api/games/{gid}")["totals"] == {"Ann": -3, "Ben": 14, "Cy": -5, "Dee": -6}
    expect(viewer.page.locator(".grid.total .score[data-player='Ben']")).to_have_text("+14")


def test_owner_link_hands_editing_to_another_phone(server, phones):
    first, second = phones("first"), phones("second")
    gid = create_game(first.page, server.url, ["Ann", "Ben"])
    owner_link = first.page.locator("#owner-link").input_value()
    assert "#token=" in owner_link and "?" not in owner_link  # never in the query string

    second.page.goto(owner_link)
    expect(second.page.locator("#role")).to_have_text("You can edit")
    # The token leaves the address bar (and the history) at once, and stays on the phone.
    assert "token" not in second.page.url
    assert second.page.evaluate(f"localStorage.getItem('rummiref:token:{gid}')") == owner_link.split("#token=")[1]
    enter_round(second.page, "Ann", {"Ben": 25})
    expect(first.page.locator("#round-1 > summary .score[data-player='Ann']")).to_have_text("+25")


def test_a_stale_edit_is_refused_and_the_other_phones_round_kept(server, phones):
    """Phone A opens round 1 to edit it; phone B undoes round 1 and enters a new round 1; A
    saves: the page shows why nothing was saved, and B's round stands."""
    a, b = phones("a"), phones("b")
    gid = create_game(a.page, server.url, ["Ann", "Ben"])
    b.page.goto(a.page.locator("#owner-link").input_value())
    enter_round(a.page, "Ann", {"Ben": 10})
    expect(b.page.locator("#round-1 > summary .score[data-player='Ann']")).to_have_text("+10")

    a.page.locator("#round-1 > summary").click()
    a.page.click("#round-1 .edit-round")
    a.page.locator(".rack-card[data-player='Ben'] .rack-points").fill("20")

    b.page.locator("#round-1 > summary").click()
    b.page.once("dialog", lambda d: d.accept())
    b.page.click("#round-1 .undo-round")
    expect(b.page.locator("#round-1")).to_have_count(0)
    enter_round(b.page, "Ben", {"Ann": 7})
    expect(a.page.locator("#round-1 > summary .score[data-player='Ben']")).to_have_text("+7")

    a.page.click("#entry-save")
    expect(a.page.locator("#entry-error")).to_contain_text("round 1 was entered again by")
    expect(a.page.locator("#entry-error")).to_contain_text("Reload the sheet")
    a.shot("stale-edit-refused")
    rnd = api_get(server.url, f"/api/games/{gid}/rounds/1")
    assert rnd["winner"] == "Ben" and rnd["scores"] == {"Ann": -7, "Ben": 7}
    expect(a.page.locator("#round-1 > summary .score[data-player='Ben']")).to_have_text("+7")
