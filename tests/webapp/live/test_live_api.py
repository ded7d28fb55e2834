"""The live referee's server side: snapshots in, verdicts, the turn log, disputes, corrections,
rack photos, and the pages."""

from __future__ import annotations

import base64

import pytest

from .conftest import post_snapshot

cv2 = pytest.importorskip("cv2")

# Every test here runs on SQLite and on PostgreSQL.
pytestmark = pytest.mark.parametrize(
    "live_app", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True)


snap = post_snapshot


def test_a_game_of_turns_is_judged_for_the_player_in_seat_order(client, game):
    r = snap(client, game, "")
    assert r.status_code == 200 and r.get_json()["result"] == "start"
    r = snap(client, game, "R10 R11 R12")
    assert r.status_code == 201
    t = r.get_json()["turn"]
    assert (t["number"], t["player"], t["legal"]) == (1, "Ann", True)
    assert t["verdict"]["kind"] == "opening" and t["verdict"]["initial_points"] == 33
    assert r.get_json()["next_player"] == "Ben"
    # Ben opens with 6 points: not valid, restore and draw 3
    t = snap(client, game, "R10 R11 R12 | K1 K2 K3").get_json()["turn"]
    assert (t["player"], t["legal"]) == ("Ben", False)
    assert t["verdict"]["violations"][0]["code"] == "initial-meld-too-low"
    assert "draw 3" in t["summary"]
    st = client.get(game["api"]).get_json()
    assert st["restore_pending"] and st["next_player"] == "Cy" and st["table"] == "R10 R11 R12"
    # the table is restored: not a turn
    r = snap(client, game, "R10 R11 R12").get_json()
    assert r["result"] == "restored" and r["turn"] is None
    # the same table again: nothing happens
    assert snap(client, game, "R12 R11 R10").get_json()["result"] == "unchanged"
    t = snap(client, game, "R10 R11 R12 | K13 B13 O13").get_json()["turn"]
    assert (t["player"], t["legal"]) == ("Cy", True)
    # Ann has opened: she may add one tile
    t = snap(client, game, "R10 R11 R12 R13 | K13 B13 O13").get_json()["turn"]
    assert (t["player"], t["legal"], t["verdict"]["kind"]) == ("Ann", True, "play")
    turns = client.get(game["api"] + "/turns").get_json()["turns"]
    assert [(x["player"], x["legal"]) for x in turns] == \
        [("Ann", True), ("Ben", False), ("Cy", True), ("Ann", True)]


def test_end_turn_tap_with_the_table_unchanged_is_a_draw(client, game):
    # before the camera saw the table, ending a turn makes no sense
    r = client.post(game["api"] + "/end-turn", json={}, headers=game["headers"])
    assert r.status_code == 409
    snap(client, game, "R1 R2 R3")
    tap = client.post(game["api"] + "/end-turn", json={}, headers=game["headers"]).get_json()
    assert client.get(game["api"]).get_json()["end_turn"] == tap["end_turn"]
    t = snap(client, game, "R1 R2 R3", reason="end-turn", end_turn=tap["end_turn"]).get_json()
    assert t["turn"]["verdict"]["kind"] == "draw" and t["turn"]["legal"] is True
    assert "draw a tile" in t["turn"]["summary"]
    assert client.get(game["api"]).get_json()["end_turn"] is None


def test_edits_need_the_token_and_bad_input_changes_nothing(client, game):
    one = {"reading": {"table": "R1 R2 R3"}}
    assert client.post(game["api"] + "/snapshots", json=one).status_code == 401
    bad = {"Authorization": "Bearer nope"}
    assert client.post(game["api"] + "/snapshots", json=one, headers=bad).status_code == 403
    r = snap(client, game, "R1 R14 R3")
    assert r.status_code == 422 and r.get_json()["token"] == "R14"
    assert r.get_json()["field"] == "reading.table"

    def post(body):
        return client.post(game["api"] + "/snapshots", json=body, headers=game["headers"])

    r = post({"reading": {"tiles": [{"tile": "X9"}], "melds": [[0]]}})
    assert r.status_code == 422 and r.get_json()["field"] == "reading.tiles[0].tile"
    r = post({"reading": {"tiles": [{"tile": "R1"}], "melds": [[0, 1]]}})
    assert r.status_code == 422 and r.get_json()["field"] == "reading.melds[0]"
    # numbers a JSON parser takes but no picture has: refused, naming the field
    big = [[0, 0], [1e308, 0], [1, 1], [0, 1]]
    r = post({"reading": {"tiles": [{"tile": "R1", "corners": big}], "melds": [[0]]}})
    assert r.status_code == 422 and r.get_json()["field"] == "reading.tiles[0].corners[1]"
    r = post({"reading": {"tiles": [{"tile": "R1"}] * 107, "melds": [[0]]}})
    assert r.status_code == 422 and r.get_json()["field"] == "reading.tiles"
    assert post({"table": "R1 R2 R3"}).status_code == 422   # a reading goes under "reading"
    r = snap(client, game, "R1 R2 R3", picture="not base64!")
    assert r.status_code == 422 and r.get_json()["field"] == "picture"
    r = snap(client, game, "R1 R2 R3", picture=base64.b64encode(b"hello").decode())
    assert r.status_code == 422
    r = snap(client, game, "R1 R2 R3", picture=base64.b64encode(b"\xff\xd8\xff\xe0junk").decode())
    assert r.status_code == 422 and r.get_json()["field"] == "picture"
    r = snap(client, game, "R1 R2 R3", reason="bored")
    assert r.status_code == 422 and r.get_json()["field"] == "reason"
    r = client.post(game["api"] + "/status", json={"state": "dancing"}, headers=game["headers"])
    assert r.status_code == 422
    assert client.get(game["api"] + "/turns").get_json()["turns"] == []
    assert client.get(game["api"]).get_json()["table"] is None
    assert client.get("/api/games/nosuchgame/live").status_code == 404


def test_a_third_copy_read_by_mistake_is_recorded_for_correction_then_judged(client, game):
    snap(client, game, "R7 R8 R9 | R7 B7 K7")
    t = snap(client, game, "R7 R8 R9 | R7 B7 K7 | R7 O7 K8").get_json()["turn"]
    assert t["legal"] is None and "cannot be judged" in t["summary"]
    assert t["verdict"] is None and "R7" in t["problem"]
    # the third R7 was really O... tile index 6 of the after reading
    r = client.post(game["api"] + "/turns/1/correct", json={"index": 6, "tile": "O6"},
                    headers=game["headers"])
    assert r.status_code == 200, r.get_json()
    fixed = r.get_json()["turn"]
    assert fixed["legal"] is False  # O6 O7 K8 is still not a meld, but now it is judged
    assert fixed["corrections"][0]["from"] == "R7" and fixed["corrections"][0]["to"] == "O6"


def test_correcting_a_misread_tile_recomputes_the_verdict_and_keeps_it_in_the_log(client, game):
    snap(client, game, "")
    # Ann's R8 was misread as R3: the run looks broken
    t = snap(client, game, "R7 R3 R9 R10").get_json()["turn"]
    assert t["legal"] is False
    d = client.get(game["api"] + "/turns/1").get_json()
    assert d["changes"]["added"] == ["R3", "R7", "R9", "R10"]
    assert d["solver"]["possible"] is False and "draw 3" in d["solver"]["answer"]
    r = client.post(game["api"] + "/turns/1/correct",
                    json={"side": "after", "index": 1, "tile": "R8"}, headers=game["headers"])
    body = r.get_json()
    assert body["turn"]["legal"] is True and body["recomputed"] == [1]
    d = client.get(game["api"] + "/turns/1").get_json()
    assert d["legal"] is True and d["after"]["table"] == "R7 R8 R9 R10"
    assert d["corrections"][0]["legal_before"] is False and d["corrections"][0]["legal_after"] is True
    # the table now counts as laid: the next player's turn starts from it
    st = client.get(game["api"]).get_json()
    assert st["restore_pending"] is False and st["table"] == "R7 R8 R9 R10"
    r = client.post(game["api"] + "/turns/1/correct", json={"index": 99, "tile": "R8"},
                    headers=game["headers"])
    assert r.status_code == 422
    r = client.post(game["api"] + "/turns/1/correct", json={"index": 0, "tile": "Q1"},
                    headers=game["headers"])
    assert r.status_code == 422 and r.get_json()["token"] == "Q1"
    assert client.post(game["api"] + "/turns/7/correct", json={"index": 0, "tile": "R1"},
                       headers=game["headers"]).status_code == 404


def test_dispute_view_changes_and_solver_answer(client, game):
    snap(client, game, "K5 B5 O5 | R1 R2 R3 R4")
    # Ann (not opened) moved R4 into a new meld with her R5 R6: touching the table before opening
    t = snap(client, game, "K5 B5 O5 | R1 R2 R3 | R4 R5 R6").get_json()["turn"]
    assert t["legal"] is False
    d = client.get(game["api"] + "/turns/1").get_json()
    assert d["changes"] == {"added": ["R5", "R6"], "taken": [], "moved": ["R1", "R2", "R3", "R4"],
                            "broken": ["R1 R2 R3 R4"], "kept": ["K5 B5 O5"],
                            "melds_before": ["K5 B5 O5", "R1 R2 R3 R4"],
                            "melds_after": ["K5 B5 O5", "R1 R2 R3", "R4 R5 R6"]}
    assert d["solver"]["possible"] is True and d["solver"]["arrangement"]
    page = client.get(f"/games/{game['id']}/live/turns/1")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Could these tiles have been laid validly?" in html and "R4 R5 R6" in html


def test_pages_render_and_pictures_are_annotated(client, game):
    import numpy as np

    img = np.full((120, 200, 3), (40, 110, 40), np.uint8)
    ok, buf = cv2.imencode(".jpg", img)
    tiles = [{"tile": t, "confidence": 0.9, "corners": [[10 + 30 * i, 10], [35 + 30 * i, 10],
                                                        [35 + 30 * i, 45], [10 + 30 * i, 45]]}
             for i, t in enumerate(["R1", "R2", "R3"])]
    r = client.post(game["api"] + "/snapshots", headers=game["headers"],
                    json={"reading": {"tiles": tiles, "melds": [[0, 1, 2]],
                                      "uncertain": [{"index": 1, "reason": "R2 read at 0.9"}]},
                          "picture": base64.b64encode(buf.tobytes()).decode()})
    assert r.status_code == 200
    sid = r.get_json()["snapshot"]
    raw = client.get(f"{game['api']}/snapshots/{sid}.jpg")
    ann = client.get(f"{game['api']}/snapshots/{sid}.jpg?annotated=1")
    assert raw.mimetype == ann.mimetype == "image/jpeg"
    a = cv2.imdecode(np.frombuffer(ann.data, np.uint8), cv2.IMREAD_COLOR)
    # drawn by vision.annotate, as `rummiref read --annotate` draws: the valid run in green,
    # the doubted tile circled in magenta
    from vision.annotate import GREEN, MAGENTA, annotate
    from vision.reading import Reading

    def near(img, colour):
        return (np.abs(img.astype(int) - colour).max(axis=2) < 40).sum()

    assert near(a, GREEN) > 50 and near(a, MAGENTA) > 20
    plain = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    same = annotate(plain, Reading.from_json(
        {"tiles": tiles, "melds": [[0, 1, 2]], "uncertain": [{"index": 1, "reason": "x"}]}))

    def diff(x, y):
        return np.abs(x.astype(int) - y.astype(int)).mean()

    assert diff(a, same) < 0.5 * diff(a, plain)  # the same drawing, JPEG aside
    assert client.get(f"{game['api']}/snapshots/99999.jpg").status_code == 404
    # an id no database integer holds is no picture: 404, never a server error
    r = client.get(f"{game['api']}/snapshots/{'9' * 20}.jpg")
    assert r.status_code == 404 and r.is_json
    for path in ("live", "live/log"):
        p = client.get(f"/games/{game['id']}/{path}")
        assert p.status_code == 200
    # The live page draws the reading's outlines over the camera's own picture, the doubted
    # tile marked, rather than showing the annotated JPEG (whose labels shrink with the screen).
    page = client.get(f"/games/{game['id']}/live").get_data(as_text=True)
    assert '<svg id="lv-board"' in page and page.count('class="lv-t ') == 3
    assert "lv-doubt" in page and ".jpg?annotated" not in page.split('id="lv-board"')[1]
    assert client.get("/games/nosuch/live").status_code == 404


def test_watcher_status_is_shown_and_announced_once_per_change(client, game):
    h = game["headers"]
    for _ in range(3):
        assert client.post(game["api"] + "/status", json={"state": "live", "detail": "webcam 0"},
                           headers=h).status_code == 200
    v1 = client.get(f"/api/games/{game['id']}").get_json()["version"]
    client.post(game["api"] + "/status", json={"state": "stalled", "detail": "no frame for 3 s"},
                headers=h)
    v2 = client.get(f"/api/games/{game['id']}").get_json()["version"]
    assert v2 == v1 + 1
    w = client.get(game["api"]).get_json()["watcher"]
    assert w["state"] == "stalled" and w["detail"] == "no frame for 3 s"


def test_rack_photo_is_read_and_valued_and_bad_uploads_are_refused(client, game, live_app,
                                                                   monkeypatch):
    import numpy as np

    from vision.reading import Reading
    from webapp.live import rack

    ext = live_app.extensions["rummiref_live"]
    # a reader test double: this test is about the upload path, not reading
    ext["reader"] = lambda image: Reading.from_json({"tiles": [
        {"tile": t, "confidence": c, "corners": [[x, 0], [x + 1, 0], [x + 1, 1.4], [x, 1.4]]}
        for t, c, x in (("R5", 0.9, 0), ("K13", 0.9, 1), ("J", 0.6, 2))], "melds": [[0, 1, 2]]})
    ok, buf = cv2.imencode(".png", np.full((60, 80, 3), 200, np.uint8))
    photo = buf.tobytes()
    url = game["api"] + "/rack-photo"
    from io import BytesIO
    r = client.post(url, data={"photo": (BytesIO(photo), "rack.png"), "player": "ben"},
                    headers=game["headers"])
    assert r.status_code == 200, r.get_json()
    out = r.get_json()
    assert out == {**out, "tiles": "R5 K13 J", "rows": ["R5 K13 J"], "count": 3, "value": 48,
                   "player": "Ben", "uncertain": ["J"]}
    assert out["doubts"] == [{"index": 2, "tile": "J", "reason": "J read at 0.60",
                              "alternatives": []}]
    r = client.post(url, data={"photo": (BytesIO(b"this is text"), "rack.jpg")},
                    headers=game["headers"])
    assert r.status_code == 422 and r.get_json()["field"] == "photo"
    r = client.post(url, data={"photo": (BytesIO(b""), "rack.jpg")}, headers=game["headers"])
    assert r.status_code == 422
    big = b"\xff\xd8\xff" + b"0" * (rack.MAX_PHOTO_BYTES + 10)
    r = client.post(url, data={"photo": (BytesIO(big), "rack.jpg")}, headers=game["headers"])
    assert r.status_code == 413
    r = client.post(url, json={"photo": "x"}, headers=game["headers"])
    assert r.status_code == 415
    assert client.post(url, data={"photo": (BytesIO(photo), "r.png")}).status_code == 401


def test_a_rack_read_with_a_third_copy_is_answered_with_the_copies_to_check(client, game,
                                                                           live_app):
    """A misread tile may make a third R10 or a third joker: the photo is still read, in
    rows (back row first), and every copy concerned is listed to check."""
    from io import BytesIO

    import numpy as np

    from vision.reading import Reading

    def tile(t, x, y, c=0.95):
        return {"tile": t, "confidence": c,
                "corners": [[x, y], [x + 40, y], [x + 40, y + 56], [x, y + 56]]}

    # the front row (lower in the picture) is listed first, as a reader may find it
    live_app.extensions["rummiref_live"]["reader"] = lambda image: Reading.from_json({
        "tiles": [tile("R10", 0, 80), tile("J", 45, 82), tile("R10", 90, 80, 0.7),
                  tile("R10", 0, 0), tile("J", 45, 2), tile("J", 90, 0), tile("K3", 135, 1)],
        "melds": [[0, 1, 2], [3, 4, 5, 6]]})
    ok, buf = cv2.imencode(".png", np.full((60, 80, 3), 200, np.uint8))
    r = client.post(game["api"] + "/rack-photo", headers=game["headers"],
                    data={"photo": (BytesIO(buf.tobytes()), "rack.png")})
    assert r.status_code == 200, r.get_json()
    out = r.get_json()
    assert out["rows"] == ["R10 J J K3", "R10 J R10"]
    assert out["tiles"] == "R10 J J K3 R10 J R10" and out["count"] == 7
    assert out["value"] == 10 * 3 + 3 + 3 * 30  # sabra: a joker on a rack costs 30
    assert sorted(out["uncertain"]) == ["J", "J", "J", "R10", "R10", "R10"]
    reasons = {d["index"]: d["reason"] for d in out["doubts"]}
    assert sorted(reasons) == [0, 1, 2, 4, 5, 6]
    assert "3 copies of R10 on the rack" in reasons[0] and "3 jokers" in reasons[1]
    assert "R10 read at 0.70" in reasons[6]


def test_a_synthetic_rack_photo_is_read_row_by_row_by_the_real_reader(client, game):
    pytest.importorskip("onnxruntime")
    from io import BytesIO

    from vision.synth import edition, render_rack

    rows = [["R1", "R2", "R3", "J", "K13", "B7"], ["B5", "B6", "O9", "K9", "R10", "R11", "K3"]]
    img, _ = render_rack(rows, seed=3, size=(1200, 900), edition=edition("classic"),
                         perspective=0.2)
    ok, jpg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    r = client.post(game["api"] + "/rack-photo", headers=game["headers"],
                    data={"photo": (BytesIO(jpg.tobytes()), "rack.jpg"), "player": "Cy"})
    assert r.status_code == 200, r.get_json()
    out = r.get_json()
    assert out["rows"] == [" ".join(row) for row in rows]
    assert out["count"] == 13 and out["player"] == "Cy"
    assert out["value"] == (1 + 2 + 3 + 30 + 13 + 7) + (5 + 6 + 9 + 9 + 10 + 11 + 3)


def test_the_scoresheet_timer_times_the_turn_and_moves_to_the_next_player(client, game,
                                                                           monkeypatch):
    from webapp import stamps

    snap(client, game, "K5 B5 O5")
    r = client.post(f"/api/games/{game['id']}/timer", json={"action": "start"},
                    headers=game["headers"])
    assert r.status_code == 200 and r.get_json()["player"] == "Ann"
    t = snap(client, game, "K5 B5 O5 | R10 R11 R12").get_json()["turn"]
    assert t["legal"] is True and 0 <= t["elapsed"] < 30
    timer = client.get(f"/api/games/{game['id']}/timer").get_json()
    assert (timer["state"], timer["player"]) == ("running", "Ben")
    # Ben takes 2 minutes over a valid-looking play: over the preset's 60 s
    real = stamps.now_ms
    monkeypatch.setattr(stamps, "now_ms", lambda: real() + 120_000)
    t = snap(client, game, "K5 B5 O5 | R10 R11 R12 | K13 B13 O13").get_json()["turn"]
    assert t["player"] == "Ben" and t["legal"] is False
    assert "time-exceeded" in [v["code"] for v in t["verdict"]["violations"]]
    # a correction keeps the time the turn took
    r = client.post(game["api"] + "/turns/2/correct", json={"index": 6, "tile": "K13"},
                    headers=game["headers"])
    assert "time-exceeded" in [v["code"] for v in r.get_json()["turn"]["verdict"]["violations"]]


def test_players_can_say_whose_turn_it_is(client, game):
    snap(client, game, "K5 B5 O5")
    r = client.post(game["api"] + "/next-player", json={"player": "cy"}, headers=game["headers"])
    assert r.status_code == 200 and r.get_json()["next_player"] == "Cy"
    t = snap(client, game, "K5 B5 O5 | R10 R11 R12").get_json()["turn"]
    assert t["player"] == "Cy"
    assert client.get(game["api"]).get_json()["next_player"] == "Ann"
    r = client.post(game["api"] + "/next-player", json={"player": "Zed"}, headers=game["headers"])
    assert r.status_code == 422 and "Ann, Ben, Cy" in r.get_json()["error"]
    assert client.post(game["api"] + "/next-player", json={"player": "Ann"}).status_code == 401


def test_solver_answer_when_the_table_is_valid_but_the_turn_is_not(client, game):
    snap(client, game, "K5 B5 O5")
    t = snap(client, game, "K5 B5 O5 | B1 B2 B3").get_json()["turn"]  # 6 points: too low
    assert t["legal"] is False
    d = client.get(game["api"] + "/turns/1").get_json()
    assert d["solver"]["possible"] is True
    assert d["solver"]["answer"].startswith("Yes, and they were") and d["solver"]["as_laid"]
    # the dispute view says the turn broke another rule, as the verdict above it shows
    html = client.get(f"/games/{game['id']}/live/turns/1").get_data(as_text=True)
    assert "The turn breaks another rule" in html


def test_solver_counts_the_tiles_taken_off_the_table(client, game):
    snap(client, game, "R1 R2 R3 R4")
    # Ann (opened? no: but the point here is the taken tile) takes R4 and lays K9 B9 O9 R9
    t = snap(client, game, "R1 R2 R3 | K9 B9 O9 R9").get_json()["turn"]
    assert "tiles-taken" in [v["code"] for v in t["verdict"]["violations"]]
    d = client.get(game["api"] + "/turns/1").get_json()
    assert d["changes"]["taken"] == ["R4"]
    assert d["solver"]["possible"] is True and "R4" in d["solver"]["arrangement"]
    assert "tiles taken put back (R4)" in d["solver"]["answer"]


def test_the_dispute_view_shows_the_tiles_to_move_for_the_nearest_valid_table(client, game):
    snap(client, game, "R1 R2 R3 R4")
    snap(client, game, "R1 R2 | R3 R4 R5 R6")   # R1 R2 alone: R3 belongs with them
    d = client.get(game["api"] + "/turns/1").get_json()
    assert d["solver"]["possible"] is True and d["solver"]["moved"] == ["R3"]
    html = client.get(f"/games/{game['id']}/live/turns/1").get_data(as_text=True)
    assert 'id="lv-solver-moved">R3<' in html and "R1 R2 R3" in html


def test_a_rack_photo_for_someone_not_in_the_game_is_refused_before_it_is_read(
        client, game, live_app):
    # It was read and answered with "player": null, as if the name had been left out.
    import numpy as np
    from io import BytesIO

    reads = []
    live_app.extensions["rummiref_live"]["reader"] = lambda image: reads.append(1)
    ok, buf = cv2.imencode(".png", np.full((60, 80, 3), 200, np.uint8))
    r = client.post(game["api"] + "/rack-photo", headers=game["headers"],
                    data={"photo": (BytesIO(buf.tobytes()), "rack.png"), "player": "Zed"})
    assert r.status_code == 422 and r.get_json()["field"] == "player"
    assert "'Zed' is not a player in this game" in r.get_json()["error"] and reads == []


def test_a_picture_in_wrapped_base64_or_as_a_data_url_is_taken(client, game):
    # `base64 photo.jpg` (lines of 76 characters) and a browser's readAsDataURL() are base64
    # JPEGs too; both were refused as "not valid base64".
    import numpy as np

    ok, buf = cv2.imencode(".jpg", np.full((120, 160, 3), 200, np.uint8))
    raw = buf.tobytes()
    for picture, table in [(base64.encodebytes(raw).decode(), ""),
                           ("data:image/jpeg;base64," + base64.b64encode(raw).decode(),
                            "R1 R2 R3")]:
        assert "\n" in picture or picture.startswith("data:")
        r = post_snapshot(client, game, table, picture=picture)
        assert r.status_code in (200, 201), r.get_json()
        snap = r.get_json()["snapshot"]
        got = client.get(game["api"] + f"/snapshots/{snap}.jpg")
        assert got.status_code == 200 and got.data == raw
    # what is still refused says why
    r = post_snapshot(client, game, "R1 R2 R3 R4", picture="data:image/jpeg," + "A" * 8)
    assert r.status_code == 422 and "must be base64" in r.get_json()["error"]
    r = post_snapshot(client, game, "R1 R2 R3 R4", picture="*" * 8)
    assert r.status_code == 422 and r.get_json()["field"] == "picture"
