"""Watcher and web app together: generated frames of a scripted game -> watcher -> a sink ->
the live referee -> verdicts, the turn log, and the events the phones hear."""

from __future__ import annotations

import json
import os
import time

import pytest

cv2 = pytest.importorskip("cv2")

from vision.http_sink import HttpSink
from vision.sources import iter_source
from vision.watch import Watcher, WatchConfig
from webapp.live.camera import InProcessSink
from webapp.testing import LiveServer

from tests.vision.fakes import CodedFrameReader, NullSource
from tests.vision.scripted_game import GAME, game_frames

#: What the referee must say for each turn of scripted_game.GAME (player, legal, violation codes).
EXPECTED = [
    ("Ann", True, []),
    ("Ben", False, ["initial-meld-too-low"]),
    # ben-restores: not a turn
    ("Cy", True, []),
    ("Ann", True, []),
    # Ben has still not opened: B5 B6 is no meld, and worth too little to open with
    ("Ben", False, ["invalid-meld", "initial-meld-too-low"]),
]


def _verdicts(client, game):
    turns = client.get(game["api"] + "/turns").get_json()["turns"]
    return [(t["player"], t["legal"], [v["code"] for v in t["verdict"]["violations"]])
            for t in turns]


def phone_events(client, game, until, after=0):
    """The events a phone's stream delivers (``?after=``), read until ``until(events)``."""
    resp = client.get(f"/api/games/{game['id']}/events?after={after}", buffered=False)
    assert resp.status_code == 200 and resp.mimetype == "text/event-stream"
    events, pending = [], ""
    try:
        for chunk in resp.response:
            pending += chunk.decode() if isinstance(chunk, bytes) else chunk
            while "\n\n" in pending:
                block, pending = pending.split("\n\n", 1)
                fields = dict(line.split(": ", 1) for line in block.splitlines()
                              if ": " in line and not line.startswith(":"))
                if "event" in fields:
                    events.append({"type": fields["event"], "id": fields.get("id"),
                                   "data": json.loads(fields["data"])})
            if until(events):
                break
    finally:
        resp.close()
    return events


def test_scripted_game_through_watcher_and_web_app(live_app, client, game):
    sink = InProcessSink(live_app, game["id"])
    w = Watcher(NullSource(), CodedFrameReader(), sink, WatchConfig())
    for t, frame, _ in game_frames(fps=10):
        w.step(frame, t)
    results = ["start", "turn", "turn", "restored", "turn", "turn", "turn"]
    assert [r["result"] for r in sink.results] == results
    assert _verdicts(client, game) == EXPECTED
    state = client.get(game["api"]).get_json()
    assert state["next_player"] == "Cy" and state["restore_pending"] is True
    assert state["last_turn"]["summary"].startswith("Not valid:")
    # every turn has its before and after pictures
    for t in client.get(game["api"] + "/turns").get_json()["turns"]:
        for side in ("before", "after"):
            r = client.get(t[side]["image"])
            assert r.status_code == 200 and r.mimetype == "image/jpeg"
    # the phones heard of each table and each verdict through the game's event stream, in order
    heard = phone_events(client, game, lambda ev: sum(e["type"] == "live-turn" for e in ev) >= 7)
    turns = [e["data"] for e in heard if e["type"] == "live-turn"]
    assert [t["result"] for t in turns] == results
    judged = [t["turn"] for t in turns if t["result"] == "turn"]
    assert [(t["player"], t["legal"], [v["code"] for v in t["verdict"]["violations"]])
            for t in judged] == EXPECTED
    assert [t["next_player"] for t in turns if t["result"] == "turn"] == \
        ["Ben", "Cy", "Ann", "Ben", "Cy"]
    ids = [int(e["id"]) for e in heard]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)


def test_server_away_snapshots_are_kept_and_sent_later(live_app, client, game):
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    sink = HttpSink(f"http://127.0.0.1:{port}", game["id"], game["token"], timeout=2,
                    backoff=(0.1, 0.3))
    w = Watcher(NullSource(), CodedFrameReader(), sink, WatchConfig())
    for t, frame, _ in game_frames(fps=10, game=GAME[:3]):
        w.step(frame, t)
    assert sink.pending == 3 and _verdicts(client, game) == []
    with LiveServer(live_app, port=port):   # the server comes (back)
        assert sink.flush(15)
    assert [r.get("result") for r in sink.results] == ["start", "turn", "turn"], sink.results
    assert _verdicts(client, game) == EXPECTED[:2]


def test_real_time_over_http_with_end_turn_tap(live_app, game):
    """A 30 fps source, the watcher in its own thread, a real HTTP server; a phone taps
    'end turn' without changing the table (a draw)."""
    server = LiveServer(live_app)
    try:
        script = [("start", "R1 R2 R3", 1.0, False), ("ann", "R1 R2 R3 | K10 B10 O10", 1.3, False),
                  ("ben", "R1 R2 R3 | K10 B10 O10", 2.5, False)]
        frames = [f for _, f, _ in game_frames(fps=30, game=script)]
        sink = HttpSink(server.url, game["id"], game["token"])
        cfg = WatchConfig(end_turn_poll=0.2)
        w = Watcher(iter_source(frames, fps=30), CodedFrameReader(), sink, cfg)
        w.start()
        import json
        import urllib.request
        tapped = False
        deadline = time.monotonic() + 20
        while w.running and time.monotonic() < deadline:
            if not tapped and len(sink.results) >= 2:
                time.sleep(0.6)
                req = urllib.request.Request(server.url + game["api"] + "/end-turn", data=b"{}",
                                             method="POST", headers={**game["headers"],
                                                                     "Content-Type": "application/json"})
                urllib.request.urlopen(req, timeout=5).read()
                tapped = True
            time.sleep(0.05)
        w.join(5)
        assert sink.flush(10)
        with urllib.request.urlopen(server.url + game["api"] + "/turns", timeout=5) as r:
            turns = json.loads(r.read())["turns"]
        assert [(t["player"], t["legal"], t["verdict"]["kind"]) for t in turns] == \
            [("Ann", True, "opening"), ("Ben", True, "draw")]
        assert turns[1]["reason"] == "end-turn"
        with urllib.request.urlopen(server.url + game["api"], timeout=5) as r:
            st = json.loads(r.read())
        assert st["watcher"]["state"] in ("live", "stopped")
        assert w.source.buffer.dropped > 0
    finally:
        server.stop()


def _real_reader():
    """The tile reader; a model that does not load skips the test, and fails it in CI."""
    from vision.reader import Reader

    try:
        return Reader().read
    except Exception as e:  # noqa: BLE001 - no trained model in models/
        if os.environ.get("CI"):
            pytest.fail(f"the tile reader cannot load its model: {e}")
        pytest.skip(f"the tile reader cannot load its model: {e}")


def test_scripted_game_with_the_real_reader_on_rendered_frames(live_app, client, game):
    """The real path: vision.synth frames -> watcher -> real reader -> web app."""
    read = _real_reader()
    import numpy as np

    from webapp.live.demo_footage import renderer

    sink = InProcessSink(live_app, game["id"])
    w = Watcher(NullSource(), read, sink, WatchConfig())
    render = renderer()  # vision.synth with a fixed camera, as in the demo
    t = 0.0
    seed = 0
    for phase, table, still_s, hand in GAME:
        img, _ = render(table, 0)
        seed += 1
        # a moving hand between tables (skin-coloured arm from the bottom edge)
        if phase != "start":
            for k in range(6):
                arm = img.copy()
                h, wd = arm.shape[:2]
                top = int(h * (0.5 + 0.05 * k))
                cv2.rectangle(arm, (wd // 3 + 10 * k, top), (wd // 3 + 10 * k + wd // 6, h - 1),
                              (120, 160, 220), -1)
                w.step(arm, t)
                t += 0.1
        rng = np.random.default_rng(seed)
        for k in range(int(still_s * 10)):
            noisy = np.clip(img.astype(np.int16) + rng.integers(-2, 3, img.shape), 0, 255)
            w.step(noisy.astype(np.uint8), t)
            t += 0.1
    assert _verdicts(client, game) == EXPECTED


def test_serve_camera_in_process_watches_a_photo_folder(live_app, client, game, tmp_path):
    """``rummiref serve --camera FOLDER``: the watcher runs inside the server process and
    posts without a token to the most recently active game."""
    from webapp.live.start import attach

    from tests.vision.fakes import render_coded

    folder = tmp_path / "photos"
    folder.mkdir()
    for i, table in enumerate(["R1 R2 R3", "R1 R2 R3 | K10 B10 O10"]):
        cv2.imwrite(str(folder / f"{i:03d}.png"), render_coded(table, seed=i))
    w = attach(live_app, camera=str(folder), reader=CodedFrameReader())
    assert w is not None
    w.join(15)
    turns = client.get(game["api"] + "/turns").get_json()["turns"]
    assert [(t["player"], t["legal"]) for t in turns] == [("Ann", True)]
    st = client.get(game["api"]).get_json()
    assert st["watcher"]["state"] == "stopped"


def test_serve_camera_with_a_bad_source_still_serves(live_app, client, capsys):
    from webapp.live.start import attach

    assert attach(live_app, camera="/no/such/camera") is None
    assert "could not start" in capsys.readouterr().err
    assert client.get("/api/presets").status_code == 200


def test_a_stalled_camera_is_shown_on_the_phones_and_invents_no_turn(live_app, client, game):
    import threading


    from vision.sources import Capture, FrameSource

    from tests.vision.fakes import render_coded

    release = threading.Event()
    opens = []

    class Cap(Capture):
        n = 0

        def read(self):
            self.n += 1
            if self.n > 20:           # the stream stalls: read blocks, then fails
                release.wait(10)
                return False, None
            time.sleep(1 / 30)
            return True, render_coded("R1 R2 R3", seed=self.n)

    def opener():
        opens.append(1)
        return Cap() if len(opens) == 1 else None   # and cannot be reopened

    src = FrameSource(opener, name="phone camera", stall_after=0.4, backoff_initial=0.1,
                      backoff_max=0.2)
    sink = InProcessSink(live_app, game["id"])
    w = Watcher(src, CodedFrameReader(), sink, WatchConfig(end_turn_poll=0.1))
    w.start()
    try:
        def state():
            return client.get(game["api"]).get_json()["watcher"]["state"]

        deadline = time.monotonic() + 10
        while state() != "stalled" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert state() == "stalled"
        release.set()
        while state() != "reconnecting" and time.monotonic() < deadline:
            time.sleep(0.05)
        st = client.get(game["api"]).get_json()
        assert st["watcher"]["state"] == "reconnecting" and "retrying" in st["watcher"]["detail"]
        assert st["turns"] == 0 and st["table"] == "R1 R2 R3"   # the table seen; no turn made
    finally:
        release.set()
        w.stop()
