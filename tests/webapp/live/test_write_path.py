"""One write path: the camera inside the server (``serve --camera``, ``--demo``) is counted once
and heard by the phones exactly as a watcher posting over HTTP; corrections replay the turn log
to what a fresh log says; reading a photo holds up no other change."""

from __future__ import annotations

import io
import threading
import time

import pytest

import referee
from vision.reading import Reading
from vision.snapshot import Reason, Snapshot
from webapp.live.camera import InProcessSink
from webapp.testing import LiveServer

from tests.webapp.http_client import http_request, SSEClient
from .conftest import post_snapshot

cv2 = pytest.importorskip("cv2")

both = pytest.mark.parametrize(
    "live_app", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True)


def _snap(table: str, reason=Reason.STILL) -> Snapshot:
    import numpy as np

    picture = np.full((240, 320, 3), (40, 110, 40), np.uint8)
    return Snapshot(Reading.from_table(table), picture, reason)


@both
def test_the_camera_in_the_server_goes_through_the_http_write_path(live_app, client, game):
    """The in-process sink: a snapshot handed twice (a retry) is one turn, the answer is the
    HTTP route's answer, and a phone hears the verdict at once (not at the next poll)."""
    live_app.config["SSE_POLL_INTERVAL"] = 30.0   # only the in-process wake-up is fast
    live_app.extensions["rummiref"]["broker"].poll_interval = 30.0
    sink = InProcessSink(live_app, game["id"])
    with LiveServer(live_app) as server:
        phone = SSEClient(f"{server.url}/api/games/{game['id']}/events")
        try:
            phone.wait_for("hello")
            sink.snapshot(_snap("K5 B5 O5", Reason.START))
            turn = _snap("K5 B5 O5 | B1 B2 B3")     # Ann's opening: too low
            t0 = time.monotonic()
            sink.snapshot(turn)
            heard = phone.wait_for("live-turn")
            while heard["data"]["result"] != "turn":
                heard = phone.wait_for("live-turn")
            assert time.monotonic() - t0 < 2.0
            sink.snapshot(turn)                      # the same snapshot again: its key
        finally:
            phone.close()
    assert [r["result"] for r in sink.results] == ["start", "turn", "turn"]
    assert sink.results[2] == sink.results[1]        # the first answer, replayed
    assert heard["data"]["turn"]["player"] == "Ann" and heard["data"]["actor"] == "camera"
    log = client.get(game["api"] + "/turns").get_json()["turns"]
    assert [(t["player"], t["legal"]) for t in log] == [("Ann", False)]
    # the picture went the same way: stored and drawn
    r = client.get(log[0]["after"]["image"])
    assert r.status_code == 200 and r.mimetype == "image/jpeg"
    # and the HTTP route gives the same answer to the same request
    again = post_snapshot(client, game, "K5 B5 O5 | B1 B2 B3")
    assert again.get_json()["turn"]["player"] == "Ben"   # no key: a new turn, as over HTTP


def _fresh_game(client, tables):
    """A new game fed ``tables`` through the same API: its turns."""
    fresh = client.post("/api/games", json={"players": ["Ann", "Ben", "Cy"],
                                            "rules": "sabra"}).get_json()
    g = {"id": fresh["id"], "headers": {"Authorization": f"Bearer {fresh['token']}"},
         "api": f"/api/games/{fresh['id']}/live"}
    for table in tables:
        post_snapshot(client, g, table)
    return client.get(g["api"] + "/turns").get_json()["turns"]


def _verdicts(turns):
    return [(t["player"], t["legal"], t["verdict"], t["summary"]) for t in turns]


@both
def test_after_a_correction_the_log_says_what_a_fresh_log_of_the_corrected_tables_says(
        client, game):
    misread = ["K5 B5 O5",
               "K5 B5 O5 | R10 R11 R12",                      # Ann opens
               "K5 B5 O5 | R10 R11 R12 | K10 K11 K3",         # Ben opens: K12 read as K3
               "K5 B5 O5 | R10 R11 R12 | K10 K11 K3 | O1 O2 O3 O4 O5 O6 O7 O8",
               "K5 B5 O5 | R10 R11 R12 R13 | K10 K11 K3 | O1 O2 O3 O4 O5 O6 O7 O8"]
    for table in misread:
        post_snapshot(client, game, table)
    before = client.get(game["api"] + "/turns").get_json()["turns"]
    # Ben's turn fails, and as his tiles stay on the table, so do the turns after it
    assert [t["legal"] for t in before] == [True, False, False, False]

    def correct(number, index=8):   # the K3: tile 8 of the readings after Ben's turn
        r = client.post(game["api"] + f"/turns/{number}/correct",
                        json={"index": index, "tile": "K12"}, headers=game["headers"])
        assert r.status_code == 200
        return r.get_json()["recomputed"]

    fixed = list(misread)
    assert correct(2) == [2, 3, 4]
    fixed[2] = fixed[2].replace("K3", "K12")
    after = client.get(game["api"] + "/turns").get_json()["turns"]
    assert _verdicts(after) == _verdicts(_fresh_game(client, fixed))
    correct(3)
    correct(4, index=9)  # Ann's R13 came before it
    fixed = [t.replace("K3", "K12") for t in misread]
    after = client.get(game["api"] + "/turns").get_json()["turns"]
    assert _verdicts(after) == _verdicts(_fresh_game(client, fixed))
    assert [t["legal"] for t in after] == [True, True, True, True]
    # ... and a fresh referee.TurnLog agrees
    log = referee.TurnLog(["Ann", "Ben", "Cy"], "sabra")
    for table in fixed:
        log.observe(table)
    assert [t.verdict.to_dict() for t in log.turns] == [t["verdict"] for t in after]
    st = client.get(game["api"]).get_json()
    assert st["next_player"] == "Ben" and not st["restore_pending"]
    assert st["table"] == fixed[-1]
    assert after[1]["corrections"][0]["from"] == "K3" and after[1]["corrections"][0]["to"] == "K12"


def _round_while(live_app, game, slow_request, started, release):
    """Send ``slow_request()`` in a thread; once ``started`` says it is busy, enter a round on
    the same server. Returns (the round's status, seconds it took, the slow request's answer)."""
    out = {}
    with LiveServer(live_app) as server:
        t = threading.Thread(target=lambda: out.update(answer=slow_request(server.url)))
        t.start()
        try:
            assert started.wait(10)
            t0 = time.monotonic()
            status, _, _ = http_request(f"{server.url}/api/games/{game['id']}/rounds", "POST",
                                        {"winner": "Ann", "racks": {"Ben": 3, "Cy": 4}},
                                        game["headers"], timeout=20)
            took = time.monotonic() - t0
        finally:
            release.set()
            t.join(10)
    return status, took, out.get("answer")


def test_a_rack_photo_being_read_holds_up_no_round(live_app, game):
    """On SQLite a write transaction holds the whole database: reading the photo inside one
    held up every round on every table until the reader was done."""
    import numpy as np

    started, release = threading.Event(), threading.Event()

    def slow_reader(image):
        started.set()
        release.wait(10)
        return Reading.from_table("R5 K13")

    live_app.extensions["rummiref_live"]["reader"] = slow_reader
    ok, buf = cv2.imencode(".png", np.full((60, 80, 3), 200, np.uint8))
    client = live_app.test_client()

    def photo(url):
        return client.post(game["api"] + "/rack-photo", headers=game["headers"],
                           data={"photo": (io.BytesIO(buf.tobytes()), "rack.png")})

    status, took, rack = _round_while(live_app, game, photo, started, release)
    assert status == 201 and took < 1.0, f"the round waited {took:.1f} s for the photo"
    assert rack.status_code == 200 and rack.get_json()["value"] == 18


def test_a_snapshot_picture_being_checked_holds_up_no_round(live_app, game, monkeypatch):
    """A snapshot's picture is decoded before its write begins."""
    import base64

    import numpy as np

    from vision import imageio

    started, release = threading.Event(), threading.Event()
    real = imageio.open_image

    def slow(source, name=None, **kw):
        started.set()
        release.wait(10)
        return real(source, name, **kw)

    monkeypatch.setattr(imageio, "open_image", slow)
    ok, buf = cv2.imencode(".jpg", np.full((60, 80, 3), 90, np.uint8))
    body = {"reading": {"table": "K5 B5 O5"}, "picture": base64.b64encode(buf.tobytes()).decode()}

    def post(url):
        return http_request(f"{url}{game['api']}/snapshots", "POST", body, game["headers"],
                            timeout=20)

    status, took, snap = _round_while(live_app, game, post, started, release)
    assert status == 201 and took < 1.0, f"the round waited {took:.1f} s for the picture"
    assert snap[0] == 200 and snap[2]["result"] == "start"


def test_the_camera_in_the_server_tries_a_busy_database_again_with_the_same_key(
        live_app, client, game, monkeypatch):
    from sqlalchemy.exc import OperationalError

    from webapp.live import snapshots

    real, keys = snapshots.receive, []

    def busy_once(app, db, game_id, inp, *, key, actor, **kw):
        keys.append(key)
        if len(keys) == 2:
            raise OperationalError("BEGIN IMMEDIATE", {}, Exception("database is locked"))
        return real(app, db, game_id, inp, key=key, actor=actor, **kw)

    monkeypatch.setattr(snapshots, "receive", busy_once)
    sink = InProcessSink(live_app, game["id"], backoff=0.01)
    sink.snapshot(_snap("K5 B5 O5", Reason.START))
    turn = _snap("K5 B5 O5 | R10 R11 R12")
    sink.snapshot(turn)
    assert keys[1:] == [turn.key, turn.key]
    assert [r["result"] for r in sink.results] == ["start", "turn"]
    # a snapshot the server cannot take is refused and said so, and the camera goes on
    sink = InProcessSink(live_app, "nosuchgame")
    sink.snapshot(turn)
    assert sink.results[0]["status"] == 404
