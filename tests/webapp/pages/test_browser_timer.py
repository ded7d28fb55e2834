"""The table's turn timer: shared by every phone, warns before the end, shows the penalty, and
sounds its alarm at 0:00 (Web Audio: an iPhone cannot vibrate)."""

from __future__ import annotations

from tests.webapp.pages.browser_helpers import api_get, create_game, expect

RECORD_VIBRATION = """
  window.__vibrations = [];
  Object.defineProperty(Navigator.prototype, 'vibrate', {configurable: true,
    value: function (pattern) { window.__vibrations.push(pattern); return true; }});
"""

# A spy on the real Web Audio API: every oscillator started, its pitch and whether its audio
# context was running (a suspended one plays nothing).
RECORD_TONES = """
  window.__tones = [];
  const Audio = window.AudioContext;
  window.AudioContext = class extends Audio {
    constructor(...args) { super(...args); window.__audio = this; }
  };
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) {
    window.__tones.push({hz: this.frequency.value, state: this.context.state});
    return start.apply(this, args);
  };
"""
LANDSCAPE = {"viewport": {"width": 844, "height": 390}}
# Counts the live stream's timer events. A phone sets its clock from each one (the server's
# time left, which runs in real time); one that arrives after the test has moved the page's
# clock forward puts the clock back, so the test waits for it first.
COUNT_TIMER_EVENTS = """
  window.__timerEvents = 0;
  const Source = window.EventSource;
  window.EventSource = class extends Source {
    constructor(...args) {
      super(...args);
      this.addEventListener("timer", () => { window.__timerEvents += 1; });
    }
  };
"""


def _tones(page, hz):
    return [t for t in page.evaluate("window.__tones") if t["hz"] == hz]


def test_timer_warns_then_shows_the_penalty_on_every_phone(server, phones):
    owner, viewer = phones("owner"), phones("viewer")
    page = owner.page
    page.add_init_script(RECORD_VIBRATION + COUNT_TIMER_EVENTS)
    page.clock.install()  # the test moves the owner's clock forward instead of waiting a minute
    gid = create_game(page, server.url, ["Ann", "Ben", "Cy"], preset="sabra")
    viewer.page.goto(f"{server.url}/games/{gid}")
    expect(viewer.page.locator("#live")).to_have_attribute("data-state", "live")

    expect(page.locator("#timer-player")).to_have_text("Ann")
    expect(page.locator("#timer-clock")).to_have_text("1:00")
    page.click("#timer-face")  # tap: Ann's turn starts
    expect(page.locator("#timer")).to_have_attribute("data-state", "running")
    page.click("#timer-next")
    expect(page.locator("#timer-player")).to_have_text("Ben")
    # Every phone agrees on whose turn it is.
    expect(viewer.page.locator("#timer-player")).to_have_text("Ben", timeout=1000)
    expect(viewer.page.locator("#timer")).to_have_attribute("data-state", "running")
    page.wait_for_function("window.__timerEvents >= 2")  # the start's and the next turn's

    page.clock.fast_forward("00:51")
    expect(page.locator("#timer-clock")).to_have_text("0:09")
    expect(page.locator("#timer")).to_have_class("card timer warn")
    expect(page.locator("#timer-penalty")).to_be_hidden()
    assert page.evaluate("window.__vibrations.length") == 1
    owner.shot("timer-warning", full_page=False)

    page.clock.fast_forward("00:10")
    expect(page.locator("#timer-clock")).to_have_text("0:00")
    expect(page.locator("#timer")).to_have_class("card timer expired")
    penalty = api_get(server.url, f"/api/games/{gid}")["rules"]["timeout_penalty"]
    assert "draw 3" in penalty
    expect(page.locator("#timer-penalty")).to_have_text(f"Time is up for Ben. Penalty: {penalty}")
    assert page.evaluate("window.__vibrations.length") == 2
    owner.shot("timer-expired", full_page=False)

    # Next player: a fresh minute, no warning, no penalty.
    page.click("#timer-face")
    expect(page.locator("#timer-player")).to_have_text("Cy")
    expect(page.locator("#timer-clock")).to_have_text("1:00")
    expect(page.locator("#timer-penalty")).to_be_hidden()
    expect(viewer.page.locator("#timer-player")).to_have_text("Cy", timeout=1000)
    page.click("#timer-pause")
    expect(viewer.page.locator("#timer")).to_have_attribute("data-state", "paused", timeout=1000)


def test_preset_without_timer_counts_up(server, phones):
    owner = phones("owner")
    page = owner.page
    create_game(page, server.url, ["Ann", "Ben"], preset="pressman-1998")
    expect(page.locator("#timer-hint")).to_contain_text("no turn limit")
    page.click("#timer-face")
    expect(page.locator("#timer")).to_have_attribute("data-state", "running")
    expect(page.locator("#timer")).not_to_have_class("card timer warn")


def test_the_alarm_sounds_at_zero_on_a_phone_that_cannot_vibrate(server, phones):
    for shape, options in (("portrait", {}), ("landscape", LANDSCAPE)):
        phone = phones(shape, **options)
        page = phone.page
        # An iPhone: no navigator.vibrate at all.
        page.add_init_script("delete Navigator.prototype.vibrate;" + RECORD_TONES
                             + COUNT_TIMER_EVENTS)
        page.clock.install()
        create_game(page, server.url, ["Ann", "Ben"], preset="sabra")
        page.click("#timer-face")  # the tap that starts the turn also lets the page play sound
        expect(page.locator("#timer")).to_have_attribute("data-state", "running")
        # The browser starts the tap's audio a moment later; a real turn gives it a minute, the
        # test's fast-forwarded clock does not, so wait for it as a player would.
        page.wait_for_function("window.__audio && window.__audio.state === 'running'")
        page.wait_for_function("window.__timerEvents >= 1")  # the start, from the live stream
        page.clock.fast_forward("00:50")
        expect(page.locator("#timer")).to_have_class("card timer warn")
        assert len(_tones(page, 660)) == 1  # one short beep: the last ten seconds
        assert _tones(page, 880) == []      # no alarm before 0:00
        page.clock.fast_forward("00:09")
        expect(page.locator("#timer-clock")).to_have_text("0:01")
        assert _tones(page, 880) == []
        page.clock.fast_forward("00:01")
        expect(page.locator("#timer")).to_have_class("card timer expired")
        alarm = _tones(page, 880)
        assert len(alarm) == 3 and all(t["state"] == "running" for t in alarm), alarm
        phone.shot("alarm", full_page=False)
        # Once per turn: the clock standing at 0:00 does not ring again and again.
        page.clock.fast_forward("00:05")
        assert len(_tones(page, 880)) == 3
