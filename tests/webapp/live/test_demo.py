"""``rummiref serve --demo``: the generated game goes through watcher and web app, every turn
gets the verdict the rules give, it keeps playing, and restarting the server reuses its game."""

from __future__ import annotations

import time

import pytest

cv2 = pytest.importorskip("cv2")

from vision.watch import Watcher, WatchConfig
from webapp.live import demo, demo_footage as footage
from webapp.live.camera import InProcessSink

from tests.vision.fakes import NullSource


def test_demo_game_verdicts(live_app, client, game):
    reader = footage.KnownTablesReader(footage.renderer(), footage.DEMO_GAME)
    sink = InProcessSink(live_app, game["id"])
    w = Watcher(NullSource(), reader, sink, WatchConfig())
    fps = 10
    for k, frame in enumerate(footage.demo_frames(fps)):
        w.step(frame, k / fps)
    turns = client.get(game["api"] + "/turns").get_json()["turns"]
    assert [(t["player"], t["legal"]) for t in turns] == [
        ("Ann", True), ("Ben", False), ("Cy", True), ("Ann", True), ("Ben", False)]
    assert [r["result"] for r in sink.results].count("restored") == 1


SHORT = [("start", "K5 B5 O5", 1.2, False),
         ("Ann opens", "K5 B5 O5 | R10 R11 R12", 1.2, False)]


def _wait(what, seconds=30):
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def test_the_demo_keeps_playing_and_a_restart_reuses_its_game(live_app):
    c = live_app.test_client()
    reader = footage.KnownTablesReader(footage.renderer(), SHORT)
    d = demo.start_demo(live_app, fps=30, reader=reader, game=SHORT, rounds=3, pause=0.5)
    try:
        assert c.get(d.url).status_code == 200
        state = lambda: c.get(f"/api/games/{d.game}/live").get_json()  # noqa: E731
        _wait(lambda: d.rounds >= 2 and state()["turns"] == 1)
        # the second round is judged from its own start: Ann opens again, as the first turn
        st = state()
        assert st["last_turn"]["player"] == "Ann" and st["last_turn"]["legal"] is True
        assert st["watcher"]["state"] == "live"   # still playing, not "stopped"
        _wait(lambda: d.rounds == 3)
    finally:
        d.stop()
    # the rounds before the last are forgotten (their pictures would pile up)
    from sqlalchemy import func, select

    from webapp.live.models import LiveSession

    with live_app.app_context():
        from webapp.db import get_db

        n = get_db().execute(select(func.count()).select_from(LiveSession)
                             .where(LiveSession.game_id == d.game)).scalar()
    assert n == 1
    # a restart of the server plays the same game: the history holds one demo game
    again = demo.start_demo(live_app, fps=30, reader=reader, game=SHORT, rounds=1, pause=0.5)
    again.stop()
    assert (again.game, again.token) == (d.game, d.token)
    games = c.get("/api/games").get_json()
    assert games["total"] == 1 and games["games"][0]["players"] == demo.PLAYERS


def _serve_demo(instance):
    """Start ``rummiref serve --demo`` and return (process, the live page's URL it prints)."""
    import queue
    import subprocess
    import sys
    import threading
    from pathlib import Path

    repo = Path(__file__).resolve().parents[3]
    proc = subprocess.Popen([sys.executable, "-m", "webapp.cli", "serve", "--demo", "--port", "0",
                             "--instance", str(instance)], cwd=repo, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()
    seen = []
    while True:
        try:
            line = lines.get(timeout=90)
        except queue.Empty:
            proc.kill()
            raise AssertionError(f"serve --demo printed no demo link: {seen}")
        seen.append(line)
        if line.strip().startswith("live referee demo: http"):
            return proc, line.split(": ", 1)[1].strip()


def test_serve_demo_prints_its_link_and_a_restart_plays_the_same_game(tmp_path):
    from tests.webapp.http_client import http_request

    urls = []
    for _ in range(2):
        proc, url = _serve_demo(tmp_path / "inst")
        try:
            status, _, _ = http_request(url)
            assert status == 200
            base = url.split("/games/")[0]
            _, _, games = http_request(base + "/api/games")
            assert games["total"] == 1
            urls.append(url.split("/games/")[1])
        finally:
            proc.terminate()
            proc.communicate(timeout=30)
    assert urls[0] == urls[1]
