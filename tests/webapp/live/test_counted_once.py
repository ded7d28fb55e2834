"""Every turn counted once: a snapshot sent again with its Idempotency-Key (a watcher whose
request timed out, two servers racing on one database) gets the first answer and records
nothing new; on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest

from vision.http_sink import HttpSink
from vision.reading import Reading
from vision.snapshot import Reason, Snapshot
from webapp.testing import LiveServer

from tests.webapp.http_client import http_request, unique_key
from .conftest import post_snapshot

#: On SQLite and on PostgreSQL.
both = pytest.mark.parametrize(
    "live_app", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True)


def turns(client, game):
    return client.get(game["api"] + "/turns").get_json()["turns"]


def version(client, game):
    return client.get(f"/api/games/{game['id']}").get_json()["version"]


@both
def test_one_snapshot_posted_twice_with_one_key_is_one_turn(client, game):
    post_snapshot(client, game, "K5 B5 O5", key=unique_key())
    key = unique_key()
    # Ann opens with 6 points: not valid, the table must go back. The same snapshot once more
    # without its key would be judged again, as Ben's turn.
    first = post_snapshot(client, game, "K5 B5 O5 | B1 B2 B3", key=key)
    assert first.status_code == 201 and first.get_json()["turn"]["player"] == "Ann"
    v = version(client, game)
    again = post_snapshot(client, game, "K5 B5 O5 | B1 B2 B3", key=key)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert [(t["player"], t["legal"]) for t in turns(client, game)] == [("Ann", False)]
    assert version(client, game) == v                      # nothing new, nothing announced
    assert client.get(game["api"]).get_json()["next_player"] == "Ben"
    # the same key for another snapshot is a mistake, said so
    r = post_snapshot(client, game, "K5 B5 O5 | R10 R11 R12", key=key)
    assert r.status_code == 422 and r.get_json()["field"] == "Idempotency-Key"
    assert len(turns(client, game)) == 1


@both
def test_a_race_the_lookup_misses_is_caught_by_the_unique_key(client, game, monkeypatch):
    """Two servers that both looked for the key before either had saved it: the second
    save breaks the key's unique constraint, is rolled back and tried again, and then finds
    the first answer."""
    from webapp import idempotency

    post_snapshot(client, game, "K5 B5 O5")
    key = unique_key()
    first = post_snapshot(client, game, "K5 B5 O5 | B1 B2 B3", key=key).get_json()
    real, missed = idempotency.find_replay, []

    def not_yet_visible(db, scope, k, h, ttl):
        if not missed:
            missed.append(k)
            return None
        return real(db, scope, k, h, ttl)

    monkeypatch.setattr(idempotency, "find_replay", not_yet_visible)
    again = post_snapshot(client, game, "K5 B5 O5 | B1 B2 B3", key=key)
    assert missed == [key] and again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true" and again.get_json() == first
    assert len(turns(client, game)) == 1


def test_two_servers_racing_on_one_database_count_a_snapshot_once(make_app):
    """(On both databases, through the scoresheet's ``backend`` fixture.)"""
    a, b = make_app(), make_app()
    with LiveServer(a) as sa, LiveServer(b) as sb:
        _, _, g = http_request(sa.url + "/api/games", "POST", {"players": ["Ann", "Ben"]})
        api = f"/api/games/{g['id']}/live/snapshots"
        auth = {"Authorization": f"Bearer {g['token']}"}
        http_request(sa.url + api, "POST", {"reading": {"table": "K5 B5 O5"}}, auth)
        # two failed openings: each repeat would otherwise be judged as the next player's turn
        tables = ["K5 B5 O5 | B1 B2 B3", "K5 B5 O5 | K1 K2 K3"]
        for table in tables:
            key, barrier, answers = unique_key(), threading.Barrier(4), []

            def post(url):
                barrier.wait(10)
                answers.append(http_request(url + api, "POST", {"reading": {"table": table}},
                                            {**auth, "Idempotency-Key": key}))

            threads = [threading.Thread(target=post, args=(u,)) for u in (sa.url, sb.url) * 2]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            assert [s for s, _, _ in answers] == [201] * 4
            assert len({d["turn"]["number"] for _, _, d in answers}) == 1
            assert sum(h.get("Idempotent-Replayed") == "true" for _, h, _ in answers) == 3
        _, _, log = http_request(sb.url + f"/api/games/{g['id']}/live/turns")
        assert [(t["number"], t["player"], t["legal"]) for t in log["turns"]] == \
            [(1, "Ann", False), (2, "Ben", False)]


def test_a_server_that_answers_after_the_watchers_timeout_still_ends_with_one_turn(
        live_app, client, game):
    """SQLite's write lock is held by another writer while a turn comes in: the server saves
    the turn only after the watcher stopped waiting and sent it again. One turn."""
    path = live_app.extensions["rummiref"]["engine"].url.database
    with LiveServer(live_app) as server:
        sink = HttpSink(server.url, game["id"], game["token"], timeout=0.6, backoff=(0.1, 0.2))
        sink.snapshot(Snapshot(Reading.from_table("K5 B5 O5"), None, Reason.START))
        assert sink.flush(10)
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")   # another writer holds the database for 2.5 s
        # Ann's opening is too low: without the key, the repeat would be judged again as
        # Ben's turn (the table should have gone back)
        turn = Snapshot(Reading.from_table("K5 B5 O5 | B1 B2 B3"), None, Reason.STILL)
        sink.snapshot(turn)
        time.sleep(2.5)
        holder.execute("COMMIT")
        holder.close()
        assert sink.flush(15)
        assert sink.attempts >= 4       # the start, then the turn at least three times
        assert [r["result"] for r in sink.results] == ["start", "turn"]
    log = turns(client, game)
    assert [(t["number"], t["player"], t["legal"]) for t in log] == [(1, "Ann", False)]
    state = client.get(game["api"]).get_json()
    assert state["next_player"] == "Ben" and state["restore_pending"]
