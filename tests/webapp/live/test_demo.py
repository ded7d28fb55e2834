"""``rummiref serve --demo``: the generated game goes through watcher and web app and every
turn gets the verdict the rules give."""

from __future__ import annotations

import time

import pytest

cv2 = pytest.importorskip("cv2")

from vision.watch import Watcher, WatchConfig
from vision.watch_cli import FlaskTransport, LiveClient
from webapp import demo

from tests.vision.fakes import NullSource


def test_demo_game_verdicts(live_app, client, game):
    render, _ = demo.renderer()
    reader = demo._KnownTablesReader(render, demo.DEMO_GAME)
    sink = LiveClient(FlaskTransport(live_app), game["id"], game["token"])
    w = Watcher(NullSource(), reader, sink, WatchConfig())
    fps = 10
    for k, frame in enumerate(demo.demo_frames(fps)):
        w.step(frame, k / fps)
    turns = client.get(game["api"] + "/turns").get_json()["turns"]
    assert [(t["player"], t["legal"]) for t in turns] == [
        ("Ann", True), ("Ben", False), ("Cy", True), ("Ann", True), ("Ben", False)]
    assert [r["result"] for r in sink.results].count("restored") == 1


def test_start_demo_creates_a_game_and_starts_watching(live_app, monkeypatch):
    monkeypatch.setattr(demo, "DEMO_GAME", demo.DEMO_GAME[:2])
    out = demo.start_demo(live_app, fps=30)
    try:
        c = live_app.test_client()
        assert c.get(out["url"]).status_code == 200
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            st = c.get(f"/api/games/{out['game']}/live").get_json()
            if st["turns"] >= 1:
                break
            time.sleep(0.2)
        assert st["turns"] == 1 and st["last_turn"]["legal"] is True
        assert st["watcher"]["state"] in ("live", "stopped")
    finally:
        out["watcher"].stop()
