"""Against a real server (waitress, as ``rummiref serve`` runs it): phones posting at the same
moment, and live updates over server-sent events. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
import threading
import time

from webapp.testing import LiveServer
from tests.webapp.http_client import http_request, SSEClient, unique_key
from tests.webapp.webhelpers import new_game


def create(url, players=("Ann", "Ben", "Cy"), **extra):
    status, _, data = http_request(url + "/api/games", "POST", {"players": list(players), **extra})
    assert status == 201, data
    return data["id"], {"Authorization": f"Bearer {data['token']}"}


def run_together(n, fn):
    """Run ``fn(i)`` in n threads released at the same moment; return results by i."""
    barrier = threading.Barrier(n)
    results = [None] * n
    errors = []

    def worker(i):
        try:
            barrier.wait(10)
            results[i] = fn(i)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    return results


def test_phones_posting_at_the_same_moment_lose_nothing(live):
    gid, auth = create(live.url)
    phones, per_phone = 6, 4

    def phone(i):
        out = []
        for k in range(per_phone):
            body = {"winner": "Ann", "racks": {"Ben": i + 1, "Cy": k + 1}}
            out.append(http_request(f"{live.url}/api/games/{gid}/rounds", "POST", body,
                                    {**auth, "X-Rummiref-Device": f"phone {i}"}))
        return out

    results = run_together(phones, phone)
    statuses = [s for res in results for s, _, _ in res]
    assert statuses == [201] * (phones * per_phone)
    numbers = sorted(d["round"]["number"] for res in results for _, _, d in res)
    assert numbers == list(range(1, phones * per_phone + 1))  # unique, no gaps
    _, _, game = http_request(f"{live.url}/api/games/{gid}")
    assert len(game["rounds"]) == phones * per_phone
    expected_ben = -sum(i + 1 for i in range(phones)) * per_phone
    expected_cy = -sum(k + 1 for k in range(per_phone)) * phones
    assert game["totals"] == {"Ann": -expected_ben - expected_cy, "Ben": expected_ben,
                              "Cy": expected_cy}
    # Every round is in the audit trail once.
    _, _, audit = http_request(f"{live.url}/api/games/{gid}/audit")
    added = [e["round"] for e in audit["entries"] if e["action"] == "add-round"]
    assert sorted(added) == numbers


def test_the_same_retry_from_several_phones_counts_once(live):
    gid, auth = create(live.url)
    key = unique_key()
    body = {"winner": "Ben", "racks": {"Ann": 4, "Cy": 6}}
    results = run_together(5, lambda i: http_request(
        f"{live.url}/api/games/{gid}/rounds", "POST", body, {**auth, "Idempotency-Key": key}))
    assert [s for s, _, _ in results] == [201] * 5
    assert len({d["round"]["number"] for _, _, d in results}) == 1
    replayed = [h.get("Idempotent-Replayed") for _, h, _ in results]
    assert replayed.count("true") == 4
    _, _, game = http_request(f"{live.url}/api/games/{gid}")
    assert len(game["rounds"]) == 1 and game["totals"]["Ben"] == 10


def test_a_new_round_reaches_another_phone_within_a_second(live):
    gid, auth = create(live.url)
    viewer = SSEClient(f"{live.url}/api/games/{gid}/events")
    try:
        assert viewer.status == 200 and viewer.content_type.startswith("text/event-stream")
        hello = viewer.wait_for("hello")
        assert hello["data"]["game"]["id"] == gid and hello["data"]["version"] == 1
        # its id is the version (the browser resumes from it), and a stream that ends is
        # reconnected to after a second
        assert hello["id"] == "1" and hello["retry"] == "1000"
        took = []
        for n in range(1, 4):
            t0 = time.monotonic()
            status, _, _ = http_request(f"{live.url}/api/games/{gid}/rounds", "POST",
                                        {"winner": "Ann", "racks": {"Ben": n, "Cy": 1}}, auth)
            assert status == 201
            ev = viewer.wait_for("round-added", timeout=2)
            took.append(time.monotonic() - t0)
            assert ev["data"]["round"]["number"] == n
            assert ev["data"]["round"]["scores"] == {"Ann": n + 1, "Ben": -n, "Cy": -1}
            assert int(ev["id"]) == ev["data"]["version"]
        # The median of three within a second (a busy 2-core machine may stall one post).
        assert sorted(took)[1] < 1.0, f"rounds took {took} s to arrive"
        # Edit, undo and the timer arrive too, in order.
        http_request(f"{live.url}/api/games/{gid}/rounds/3", "PUT",
                     {"winner": "Cy", "racks": {"Ann": 2, "Ben": 2}}, auth)
        ev = viewer.wait_for("round-edited", timeout=2)
        assert ev["data"]["round"]["winner"] == "Cy" and ev["data"]["before"]["winner"] == "Ann"
        http_request(f"{live.url}/api/games/{gid}/rounds/3", "DELETE", None, auth)
        ev = viewer.wait_for("round-undone", timeout=2)
        assert ev["data"]["round"]["number"] == 3 and ev["data"]["next_starter"] == "Cy"
        http_request(f"{live.url}/api/games/{gid}/timer", "POST", {"action": "start"}, auth)
        ev = viewer.wait_for("timer", timeout=2)
        assert ev["data"]["timer"]["state"] == "running" and ev["data"]["timer"]["player"] == "Cy"
    finally:
        viewer.close()


def test_a_reconnecting_phone_gets_what_it_missed(live):
    gid, auth = create(live.url)
    for n in range(3):
        http_request(f"{live.url}/api/games/{gid}/rounds", "POST",
                     {"winner": "Ann", "racks": {"Ben": n, "Cy": 1}}, auth)
    # Versions: 1 game created, 2-4 rounds. A phone that saw version 2 reconnects.
    viewer = SSEClient(f"{live.url}/api/games/{gid}/events", headers={"Last-Event-ID": "2"})
    try:
        a = viewer.wait_for("round-added")
        b = viewer.wait_for("round-added")
        assert (a["id"], b["id"]) == ("3", "4")
        assert [a["data"]["round"]["number"], b["data"]["round"]["number"]] == [2, 3]
    finally:
        viewer.close()
    status, _, err = http_request(f"{live.url}/api/games/{gid}/events?after=x")
    assert status == 400 and "version" in err["error"]
    status, _, _ = http_request(f"{live.url}/api/games/nope/events")
    assert status == 404


def test_what_a_phone_missed_comes_in_the_order_it_happened_whatever_the_database_reads(
        sqlite_app):
    """The changes a reconnecting phone missed come once each, in the order they were made
    (their versions), whatever order the database would hand the rows back in: a query with
    no ORDER BY has none (SQLite's ``reverse_unordered_selects``, on here, reads such rows
    backwards, as another plan or database may)."""
    from sqlalchemy import event

    engine = sqlite_app.extensions["rummiref"]["engine"]

    def unordered_backwards(dbapi_connection, _record):
        dbapi_connection.execute("PRAGMA reverse_unordered_selects = ON")

    event.listen(engine, "connect", unordered_backwards)
    engine.dispose()                                   # every connection from now on
    with LiveServer(sqlite_app) as server:
        gid, auth = create(server.url)
        for n in range(1, 4):                          # versions 2, 3, 4
            status, _, _ = http_request(f"{server.url}/api/games/{gid}/rounds", "POST",
                                        {"winner": "Ann", "racks": {"Ben": n, "Cy": 1}}, auth)
            assert status == 201
        viewer = SSEClient(f"{server.url}/api/games/{gid}/events",
                           headers={"Last-Event-ID": "1"})
        try:
            missed = [viewer.next_event(5) for _ in range(3)]
            assert [(ev["event"], ev["id"], ev["data"]["round"]["number"]) for ev in missed] == [
                ("round-added", "2", 1), ("round-added", "3", 2), ("round-added", "4", 3)]
            # nothing sent twice: the next event is the next change
            http_request(f"{server.url}/api/games/{gid}/rounds", "POST",
                         {"winner": "Ben", "racks": {"Ann": 1, "Cy": 1}}, auth)
            ev = viewer.next_event(5)
            assert (ev["event"], ev["id"]) == ("round-added", "5")
        finally:
            viewer.close()


def test_updates_cross_server_processes(make_app):
    """Two servers on one database (as with several worker processes): a round entered on one
    reaches a phone listening on the other within a second of being stored (the database poll
    path; timed from the answer to the POST, which a loaded machine may take long to send)."""
    a, b = make_app(), make_app()
    with LiveServer(a) as server_a, LiveServer(b) as server_b:
        gid, auth = create(server_a.url)
        viewer = SSEClient(f"{server_b.url}/api/games/{gid}/events")
        try:
            viewer.wait_for("hello")
            for n in range(1, 3):
                status, _, _ = http_request(f"{server_a.url}/api/games/{gid}/rounds", "POST",
                                            {"winner": "Cy", "racks": {"Ann": n, "Ben": 2}}, auth)
                assert status == 201
                t0 = time.monotonic()  # from the answer: the round is stored by then
                ev = viewer.wait_for("round-added", timeout=2)
                took = time.monotonic() - t0
                assert took < 1.0, f"took {took:.3f} s"
                assert ev["data"]["round"]["number"] == n
        finally:
            viewer.close()


def test_a_stream_reads_its_log_again_within_its_reread_time_however_slow_the_poll(
        make_app, monkeypatch):
    """A stream never waits longer than ``REREAD_SECONDS`` before reading its game's event log
    again, woken or not: with the poll for other servers' changes set slower than that (here a
    minute), a round entered on another server still reaches the phone within that time (here
    made 0.3 s, not the shipped 5 s, to keep the test short; the heartbeat is 15 s)."""
    from webapp import events

    monkeypatch.setattr(events, "REREAD_SECONDS", 0.3)
    writer = make_app().test_client()                  # another server process
    app = make_app(SSE_POLL_INTERVAL=60.0)
    game = new_game(writer)
    gid = game["id"]
    with LiveServer(app) as server:
        viewer = SSEClient(f"{server.url}/api/games/{gid}/events")
        try:
            viewer.wait_for("hello")
            t0 = time.monotonic()
            r = writer.post(f"/api/games/{gid}/rounds", headers=game["headers"],
                            json={"winner": "Ann", "racks": {"Ben": 1, "Cy": 1}})
            assert r.status_code == 201, r.get_json()
            ev = viewer.wait_for("round-added", timeout=3)
            assert ev["data"]["round"]["number"] == 1
            assert time.monotonic() - t0 < 2.0
        finally:
            viewer.close()


def test_too_many_streams_get_busy_and_retry_later(make_app):
    app = make_app(SSE_MAX_STREAMS=1)
    with LiveServer(app) as server:
        gid, _ = create(server.url)
        first = SSEClient(f"{server.url}/api/games/{gid}/events")
        second = None
        try:
            first.wait_for("hello")
            second = SSEClient(f"{server.url}/api/games/{gid}/events")
            ev = second.wait_for("busy")
            assert ev["data"]["error"] == ("too many open live connections on this server; "
                                           "retrying in 5 s")
            assert ev["retry"] == "5000"  # what the browser waits before trying again
            assert second.next_event(2) is None  # the busy stream ends; the browser retries
        finally:
            first.close()
            if second:
                second.close()


def test_two_server_processes_posting_at_once_lose_nothing(make_app):
    """Phones on two servers sharing one database (no shared in-process lock): the database
    itself (SQLite's write lock, PostgreSQL's row lock) keeps round numbers unique."""
    a, b = make_app(), make_app()
    with LiveServer(a) as sa, LiveServer(b) as sb:
        gid, auth = create(sa.url)
        urls = [sa.url, sb.url]

        def phone(i):
            return [http_request(f"{urls[i % 2]}/api/games/{gid}/rounds", "POST",
                                 {"winner": "Cy", "racks": {"Ann": i, "Ben": k}}, auth)[0]
                    for k in range(3)]

        statuses = [s for res in run_together(6, phone) for s in res]
        assert statuses == [201] * 18
        _, _, game = http_request(f"{sb.url}/api/games/{gid}")
        assert [r["number"] for r in game["rounds"]] == list(range(1, 19))
        assert game["totals"]["Cy"] == sum(range(6)) * 3 + 6 * sum(range(3))


def test_a_change_wakes_the_streams_of_its_process_at_once_not_at_the_next_poll(make_app):
    """The database poll (for changes made by other server processes) is made slow here, so
    only the in-process wake-up can bring each round to the phone within half a second."""
    app = make_app(SSE_POLL_INTERVAL=3.0)
    with LiveServer(app) as server:
        gid, auth = create(server.url)
        viewer = SSEClient(f"{server.url}/api/games/{gid}/events")
        try:
            viewer.wait_for("hello")
            took = []
            for n in range(1, 4):
                t0 = time.monotonic()
                status, _, _ = http_request(f"{server.url}/api/games/{gid}/rounds", "POST",
                                            {"winner": "Ann", "racks": {"Ben": n, "Cy": 1}}, auth)
                assert status == 201
                assert viewer.wait_for("round-added", timeout=5)["data"]["round"]["number"] == n
                took.append(time.monotonic() - t0)
            # The median within half a second, every one before the poll would have brought
            # it: a no-op wake-up makes each take about 3 s.
            assert sorted(took)[1] < 0.5 and max(took) < 2.5, \
                f"rounds took {took} s to arrive (the poll is 3 s)"
        finally:
            viewer.close()


def test_a_negative_version_to_resume_from_is_refused(live):
    gid, _ = create(live.url)
    for bad in ("-1", "-99999999999999999999"):
        status, _, err = http_request(f"{live.url}/api/games/{gid}/events?after={bad}")
        assert status == 400 and "version" in err["error"]
        status, _, err = http_request(f"{live.url}/api/games/{gid}/events",
                                      headers={"Last-Event-ID": bad})
        assert status == 400 and "version" in err["error"]


def test_a_stream_that_ends_gives_its_place_back(make_app):
    """Each open stream holds one of ``SSE_MAX_STREAMS`` places (a server thread); a stream
    that ends (after ``SSE_MAX_SECONDS``, when the browser reconnects by itself) gives its place
    back, so the phones reconnecting are let in, never more than the limit at once."""
    app = make_app(SSE_MAX_STREAMS=1, SSE_MAX_SECONDS=1.0)
    with LiveServer(app) as server:
        gid, _ = create(server.url)
        url = f"{server.url}/api/games/{gid}/events"
        for _ in range(3):  # connect, let it end, connect again
            stream = SSEClient(url)
            try:
                assert stream.wait_for("hello")["data"]["game"]["id"] == gid
                extra = SSEClient(url)
                try:
                    assert extra.wait_for("busy")  # the one place is taken
                finally:
                    extra.close()
                # the stream ends by itself, after its second (well before the 5 s a wait
                # may last)
                assert stream.next_event(3.5) is None
            finally:
                stream.close()
        # with its last stream gone, the server keeps nothing for the game: a wait on it
        # answers at once, as nothing would wake it
        t0 = time.monotonic()
        assert app.extensions["rummiref"]["broker"].wait(gid, after=10**9, timeout=2) is False
        assert time.monotonic() - t0 < 1.0


def test_the_streams_left_on_a_game_are_still_woken_and_a_game_nobody_follows_is_forgotten(app):
    """The server's broker, as the event streams use it: two phones follow a game, one leaves
    and the other is still woken at once by a change; when the last leaves, nothing is kept
    for the game (a leak would show only as load: a stream polling in a loop, a game polled
    that nobody follows)."""
    broker = app.extensions["rummiref"]["broker"]
    assert broker.subscribe("left-at-once")     # a phone that leaves before any change
    broker.unsubscribe("left-at-once")
    gid = new_game(app.test_client())["id"]     # at version 1 (the poll reads 1)
    assert broker.subscribe(gid) and broker.subscribe(gid)
    assert broker.streams == 2
    broker.unsubscribe(gid)                     # one of the two phones leaves
    assert broker.streams == 1
    woke: list[tuple[bool, float]] = []

    def follower():
        t0 = time.monotonic()
        woke.append((broker.wait(gid, after=1, timeout=5), time.monotonic() - t0))

    t = threading.Thread(target=follower)
    t.start()
    time.sleep(0.2)
    broker.notify(gid, 2)                       # a change is committed
    t.join(6)
    [(woken, took)] = woke
    assert woken and took < 1.0, woke
    # a stream that has sent version 2 sleeps until there is something newer
    assert broker.wait(gid, after=2, timeout=0.3) is False
    broker.unsubscribe(gid)                     # the last phone leaves
    assert broker.streams == 0
    broker.notify(gid, 3)                       # nobody follows it: nothing to remember
    t0 = time.monotonic()                       # and nothing would wake a wait: it answers
    assert broker.wait(gid, after=0, timeout=2) is False    # at once
    assert time.monotonic() - t0 < 1.0


def test_a_game_deleted_on_another_server_is_said_gone_to_the_phones_following_it_here(
        make_app):
    """Two servers on one database: the owner deletes the game on one, and a phone following
    it on the other hears ``game-deleted`` within a second or so (that server's poll no longer
    finds the game) and its stream ends, as on the server that deleted it; a phone on
    another game there hears nothing of it."""
    a, b = make_app(), make_app(SSE_POLL_INTERVAL=0.05)
    with LiveServer(a) as sa, LiveServer(b) as sb:
        gid, auth = create(sa.url)
        other, other_auth = create(sa.url, players=("Xia", "Yu"))
        viewer = SSEClient(f"{sb.url}/api/games/{gid}/events")
        bystander = SSEClient(f"{sb.url}/api/games/{other}/events")
        try:
            viewer.wait_for("hello")
            bystander.wait_for("hello")
            status, _, _ = http_request(f"{sa.url}/api/games/{gid}", "DELETE", None, auth)
            assert status == 200
            t0 = time.monotonic()
            assert viewer.wait_for("game-deleted", timeout=3)["data"] == {"game": gid}
            assert time.monotonic() - t0 < 2.0
            assert viewer.next_event(5) is None               # and the stream ends
            # the other game's stream goes on: its next change is its next event
            http_request(f"{sa.url}/api/games/{other}/rounds", "POST",
                         {"winner": "Xia", "racks": {"Yu": 5}}, other_auth)
            ev = bystander.next_event(5)
            assert (ev["event"], ev["id"]) == ("round-added", "2")
        finally:
            viewer.close()
            bystander.close()


def test_a_server_stopping_ends_its_streams_without_saying_the_game_is_gone(app, live):
    """When the server stops, its streams are woken and end (the browser reconnects to the
    next server); the game still exists, so the phones are not told it was deleted. A phone
    that connects while it is stopping, after its poller has ended, is sent the game and the
    stream ends at once."""
    gid, auth = create(live.url)
    broker = app.extensions["rummiref"]["broker"]
    stream = SSEClient(f"{live.url}/api/games/{gid}/events")
    try:
        stream.wait_for("hello")
        broker.close()                                # what stopping the server does first
        assert stream.next_event(5) is None           # it ends, and says nothing more
    finally:
        stream.close()
    _, _, game = http_request(f"{live.url}/api/games/{gid}")
    assert game["id"] == gid
    deadline = time.monotonic() + 5
    while broker._poller and time.monotonic() < deadline:   # the poller sees it and ends
        time.sleep(0.05)
    late = SSEClient(f"{live.url}/api/games/{gid}/events")
    try:
        late.wait_for("hello")
        assert late.next_event(5) is None
    finally:
        late.close()


def test_a_phone_hears_only_of_its_own_game(live):
    """Two games on one server: a phone following one hears nothing of the other."""
    mine, my_auth = create(live.url)
    other, other_auth = create(live.url, players=("Xia", "Yu"))
    viewer = SSEClient(f"{live.url}/api/games/{mine}/events")
    try:
        viewer.wait_for("hello")
        http_request(f"{live.url}/api/games/{other}/rounds", "POST",
                     {"winner": "Xia", "racks": {"Yu": 5}}, other_auth)
        http_request(f"{live.url}/api/games/{mine}/rounds", "POST",
                     {"winner": "Ann", "racks": {"Ben": 3, "Cy": 4}}, my_auth)
        ev = viewer.next_event(5)
        assert ev["event"] == "round-added" and set(ev["data"]["round"]["scores"]) == {
            "Ann", "Ben", "Cy"}
    finally:
        viewer.close()


def test_an_event_whose_text_holds_a_unicode_line_separator_arrives_whole(live):
    """Server-sent events end a line only at CR or LF; a phone's name may hold U+2028 or
    U+2029 (a line or paragraph separator, which a device name keeps) or U+0085: the event
    naming it arrives as one piece of JSON that reads back to the same text (were it split
    at those characters, the phone would join the parts with a newline, which no JSON
    string may hold raw)."""
    gid, auth = create(live.url)
    viewer = SSEClient(f"{live.url}/api/games/{gid}/events")
    try:
        viewer.wait_for("hello")
        device = "Ann\u2028phone\u2029two"
        status, _, _ = http_request(f"{live.url}/api/games/{gid}/rounds", "POST",
                                    {"winner": "Ann", "racks": {"Ben": 1, "Cy": 2},
                                     "device": device}, auth)
        assert status == 201
        viewer.sock.settimeout(5)
        lines = []
        while not lines or lines[-1] != "":
            lines.append(viewer.resp.readline().decode("utf-8").rstrip("\r\n"))
        assert lines[:2] == ["id: 2", "event: round-added"], lines
        [data] = lines[2:-1]                      # one data line: nothing to join
        assert data.startswith("data: ")
        event = json.loads(data[len("data: "):])
        assert event["actor"] == device and event["round"]["scores"] == {
            "Ann": 3, "Ben": -1, "Cy": -2}
    finally:
        viewer.close()


def test_a_phone_reconnecting_up_to_date_gets_no_hello_only_what_comes_next(live):
    """A phone that has seen the game's current version reconnects (``Last-Event-ID``): it is
    not sent the whole game again, only the next change."""
    gid, auth = create(live.url)
    http_request(f"{live.url}/api/games/{gid}/rounds", "POST",
                 {"winner": "Ann", "racks": {"Ben": 1, "Cy": 1}}, auth)
    viewer = SSEClient(f"{live.url}/api/games/{gid}/events", headers={"Last-Event-ID": "2"})
    try:
        http_request(f"{live.url}/api/games/{gid}/rounds", "POST",
                     {"winner": "Ben", "racks": {"Ann": 2, "Cy": 2}}, auth)
        ev = viewer.next_event(5)
        assert (ev["event"], ev["id"]) == ("round-added", "3")
    finally:
        viewer.close()


def test_a_phone_far_behind_gets_every_change_it_missed_in_one_stream(app, live):
    """More changes missed than one read of the log holds (200): they all come, in order, on
    the stream the phone opened, not over several reconnections."""
    gid, auth = create(live.url)
    client = app.test_client()
    for n in range(205):
        r = client.post(f"/api/games/{gid}/timer", json={"action": "start" if n % 2 == 0
                                                          else "pause"}, headers=auth)
        assert r.status_code == 200, r.get_json()
    viewer = SSEClient(f"{live.url}/api/games/{gid}/events", headers={"Last-Event-ID": "1"})
    try:
        ids = [int(viewer.wait_for("timer", timeout=10)["id"]) for _ in range(205)]
        assert ids == list(range(2, 207))
    finally:
        viewer.close()


def _lines_until(viewer: SSEClient, last, timeout: float = 5.0) -> list[str]:
    """The stream's raw lines (comments included) up to and including the first for which
    ``last(line)`` holds."""
    viewer.sock.settimeout(timeout)
    lines: list[str] = []
    while not lines or not last(lines[-1]):
        line = viewer.resp.readline()
        assert line, f"the stream ended: {lines}"
        lines.append(line.decode().rstrip("\r\n"))
    return lines


def _comment(line: str) -> bool:
    return line.startswith(":")


def test_an_idle_stream_gets_a_ping_and_a_busy_one_none(make_app):
    """A stream with nothing to say for ``SSE_HEARTBEAT_SECONDS`` sends a comment line
    (a comment, ": ping") so that proxies and phones keep it open; one that has just sent an event does
    not, and the event after a ping arrives whole."""
    app = make_app(SSE_HEARTBEAT_SECONDS=1.0)
    with LiveServer(app) as server:
        gid, auth = create(server.url)
        viewer = SSEClient(f"{server.url}/api/games/{gid}/events")
        try:
            viewer.wait_for("hello")
            seen = []
            for n in range(1, 3):
                http_request(f"{server.url}/api/games/{gid}/rounds", "POST",
                             {"winner": "Ann", "racks": {"Ben": n, "Cy": 1}}, auth)
                seen += _lines_until(viewer, lambda line: line == "event: round-added")
            assert not any(map(_comment, seen)), seen
            idle = _lines_until(viewer, _comment, timeout=3.5)  # after about 1 s, not 5
            # the rest of the last event, then nothing but blank lines and the comment
            assert idle[0].startswith("data:") and not any(idle[1:-1]), idle
            again = _lines_until(viewer, _comment, timeout=3.5)  # and again, while idle
            assert not any(again[:-1]), again
            http_request(f"{server.url}/api/games/{gid}/rounds", "POST",
                         {"winner": "Ann", "racks": {"Ben": 3, "Cy": 1}}, auth)
            ev = viewer.next_event(5)
            assert (ev["event"], ev["id"]) == ("round-added", "4")
        finally:
            viewer.close()


def test_an_idle_stream_pings_every_heartbeat_and_reads_its_log_every_reread_time(app,
                                                                                 monkeypatch):
    """An idle stream sends its ping ``SSE_HEARTBEAT_SECONDS`` after the last thing it sent
    (a proxy that cuts connections idle for longer than that must see one in time), even
    where that is not a whole number of the waits between its reads of the log; and it never
    waits longer than ``REREAD_SECONDS`` between two reads. Here a heartbeat of 7 s and the
    shipped 5 s: the stream's clock is made, and the broker's waits time out at once, each
    moving the clock on by what it was asked to wait."""
    from webapp import events

    clock, reads = [1000.0], [0]

    def monotonic():
        reads[0] += 1      # a stream that never waits would read the clock for ever
        assert reads[0] < 1000, "the stream loops without waiting"
        return clock[0]

    fake_time = type("Time", (), {"monotonic": staticmethod(monotonic),
                                  "sleep": staticmethod(time.sleep)})
    monkeypatch.setattr(events, "time", fake_time)
    waits: list[float] = []

    class Idle(events.Broker):
        def wait(self, game_id, after, timeout):       # nothing new, ever
            waits.append(timeout)
            clock[0] += timeout
            return False

    broker = Idle(app.extensions["rummiref"]["engine"], poll_interval=60.0)
    game = new_game(app.test_client())
    body = events.stream(broker, game["id"], None, game["data"], 1, max_seconds=300.0,
                         heartbeat=7.0)
    pings = []
    try:
        for chunk in body:
            if chunk.startswith(":"):
                pings.append(clock[0] - 1000.0)
                if len(pings) == 3:
                    break
    finally:
        body.close()
        broker.close()
    assert pings == [7.0, 14.0, 21.0]
    assert max(waits) == events.REREAD_SECONDS == 5.0


def test_an_idle_stream_reads_only_the_event_log_not_whether_its_game_is_gone(make_app):
    """Each open stream costs the database a read of the event log per wake-up (a change,
    or a heartbeat while idle). Whether its game still exists is asked only when it is
    woken with nothing new to send (a deletion), never on a heartbeat's timeout nor on
    its first read: an idle phone reads the games table no more than the poll does."""
    from sqlalchemy import event

    app = make_app(SSE_HEARTBEAT_SECONDS=0.3)
    engine = app.extensions["rummiref"]["broker"].engine
    statements: list[tuple[int, str]] = []

    def seen(conn, cursor, statement, *args):
        statements.append((threading.get_ident(), " ".join(statement.split())))

    with LiveServer(app) as server:
        gid, _ = create(server.url)
        event.listen(engine, "before_cursor_execute", seen)
        try:
            viewer = SSEClient(f"{server.url}/api/games/{gid}/events")
            try:
                viewer.wait_for("hello")
                # three heartbeats: idle. Each pass of the stream reads the log, then
                # may send a heartbeat, so three heartbeats follow at least three reads
                # (two did not when the first read came a heartbeat after the hello)
                for _ in range(3):
                    _lines_until(viewer, _comment, timeout=3)
            finally:
                viewer.close()
        finally:
            event.remove(engine, "before_cursor_execute", seen)
    [stream_thread] = {t for t, sql in statements if "FROM game_events" in sql}
    mine = [sql for t, sql in statements if t == stream_thread]
    first_read = next(i for i, sql in enumerate(mine) if "FROM game_events" in sql)
    after = mine[first_read:]
    assert sum("FROM game_events" in sql for sql in after) >= 3, after  # read 3 times or more
    # (each statement's white space is one space: see ``seen``)
    assert not [sql for sql in after if "FROM games " in sql + " "], after


def test_the_poller_stops_when_nobody_listens_and_starts_again_for_the_next_phone(make_app):
    """The poll for other processes' changes costs a query every tick: it runs while a stream
    is open, stops once none has been for a while, and the next phone starts it again, so a
    round entered on another server still reaches that phone. It never keeps the server from
    stopping (a daemon thread)."""
    writer = make_app().test_client()                  # another server process
    app = make_app(SSE_POLL_INTERVAL=0.05, SSE_POLLER_IDLE_SECONDS=0.4)
    broker = app.extensions["rummiref"]["broker"]
    game = new_game(writer)
    gid = game["id"]

    def round_elsewhere(n):
        r = writer.post(f"/api/games/{gid}/rounds", headers=game["headers"],
                        json={"winner": "Ann", "racks": {"Ben": n, "Cy": 1}})
        assert r.status_code == 201, r.get_json()
        return r.get_json()["version"]

    before = set(threading.enumerate())
    assert broker.subscribe(gid)
    [poller] = [t for t in threading.enumerate() if t not in before and t.name.endswith("poller")]
    assert poller.daemon
    time.sleep(0.8)                                    # longer than the idle time, listened to
    assert poller.is_alive()
    version = round_elsewhere(1)
    assert broker.wait(gid, after=version - 1, timeout=2)
    broker.unsubscribe(gid)
    poller.join(3)
    assert not poller.is_alive(), "the poll went on with nobody listening"

    assert broker.subscribe(gid)                       # the next phone
    try:
        version = round_elsewhere(2)
        t0 = time.monotonic()
        assert broker.wait(gid, after=version - 1, timeout=3), "the poll did not start again"
        assert time.monotonic() - t0 < 1.0
    finally:
        broker.unsubscribe(gid)


def test_a_poll_while_the_database_is_away_is_tried_again_next_tick(make_app, monkeypatch):
    """The poll that brings other processes' changes meets the database away (a restart, a
    dropped connection): it tries again at the next tick, so a round entered on another
    server afterwards still reaches a phone that was already following; and a game it could
    not read is not taken for deleted (its phones are not woken for nothing)."""
    from webapp import events

    writer = make_app().test_client()                  # another server process
    app = make_app(SSE_POLL_INTERVAL=0.05)
    broker = app.extensions["rummiref"]["broker"]
    game = new_game(writer)
    gid = game["id"]
    real_session, away = events.Session, threading.Event()

    def session(engine):
        if not away.is_set():
            away.set()
            raise ConnectionError("the database is away")
        return real_session(engine)

    monkeypatch.setattr(events, "Session", session)
    version = writer.get(f"/api/games/{gid}").get_json()["version"]
    assert broker.subscribe(gid)
    try:
        assert away.wait(2)                            # the first poll met it away
        time.sleep(0.2)                                # and the next ones found the game:
        # nothing is new, and a database away is not a game gone
        assert broker.wait(gid, after=version, timeout=0.3) is False
        r = writer.post(f"/api/games/{gid}/rounds", headers=game["headers"],
                        json={"winner": "Ann", "racks": {"Ben": 1, "Cy": 1}})
        assert r.status_code == 201, r.get_json()
        assert broker.wait(gid, after=r.get_json()["version"] - 1, timeout=3), \
            "the poll stopped for good"
    finally:
        broker.unsubscribe(gid)


def test_a_change_told_late_never_takes_a_phone_back_to_an_older_version(app):
    """Two requests commit versions 5 and 4 of a game and tell the broker in the other
    order (threads racing): a phone that has sent version 4 is still woken for 5 at once,
    not a poll later (the poll reads 5 again; here the database holds version 1, so nothing
    but the broker's own memory can wake it)."""
    broker = app.extensions["rummiref"]["broker"]
    gid = new_game(app.test_client())["id"]
    assert broker.subscribe(gid)
    try:
        broker.notify(gid, 5)
        broker.notify(gid, 4)
        assert broker.wait(gid, after=4, timeout=0.5) is True
    finally:
        broker.unsubscribe(gid)


def test_one_poller_serves_every_stream_of_a_server(app):
    """However many phones follow however many games, a server process polls the database
    with one thread (one query a tick for all of them)."""
    broker = app.extensions["rummiref"]["broker"]

    def pollers():
        return [t for t in threading.enumerate()
                if t.name.endswith("poller") and t.is_alive()]

    before = set(pollers())
    games = ["one-game", "one-game", "another-game"]
    for gid in games:
        assert broker.subscribe(gid)
    try:
        assert len(set(pollers()) - before) == 1
    finally:
        for gid in games:
            broker.unsubscribe(gid)


def test_the_poller_waits_out_its_idle_time_before_it_stops(make_app):
    """A phone that reconnects (the stream's end, a page reloaded) leaves no stream open for
    a moment: the poller keeps polling through ``SSE_POLLER_IDLE_SECONDS`` with nobody
    listening, and the phone coming back finds it still running."""
    app = make_app(SSE_POLL_INTERVAL=0.05, SSE_POLLER_IDLE_SECONDS=5.0)
    broker = app.extensions["rummiref"]["broker"]
    before = set(threading.enumerate())
    assert broker.subscribe("a-game")
    [poller] = [t for t in threading.enumerate() if t not in before and t.name.endswith("poller")]
    broker.unsubscribe("a-game")
    time.sleep(0.5)                                    # ten ticks with nobody listening
    assert poller.is_alive()
    assert broker.subscribe("a-game")                  # the phone is back
    try:
        assert [t for t in threading.enumerate()
                if t not in before and t.name.endswith("poller")] == [poller]
    finally:
        broker.unsubscribe("a-game")


def test_a_poll_that_read_the_database_before_a_commit_never_takes_the_game_back(make_app):
    """The poll's query can read a game just before a commit that this process has already
    told the broker of (the request that committed notifies at once): the older version it
    read does not replace the newer one, so a phone that has sent the older version is
    still woken."""
    app = make_app(SSE_POLL_INTERVAL=0.05)
    broker = app.extensions["rummiref"]["broker"]
    game = new_game(app.test_client())
    gid = game["id"]
    read = app.test_client().get(f"/api/games/{gid}").get_json()["version"]
    assert broker.subscribe(gid)
    try:
        broker.notify(gid, read + 1)                   # committed here; the poll reads `read`
        time.sleep(0.5)                                # ten polls
        assert broker.wait(gid, after=read, timeout=0.1) is True
    finally:
        broker.unsubscribe(gid)


def test_a_game_whose_last_phone_leaves_during_a_poll_is_forgotten_all_the_same(make_app,
                                                                                 monkeypatch):
    """The poll reads the versions of the games followed; the last phone on one of them
    leaves while that query is under way: what the query brings back for it is dropped,
    and the server keeps nothing for the game (a wait on it answers at once that nothing is
    new)."""
    from webapp import events

    app = make_app(SSE_POLL_INTERVAL=0.05)
    broker = app.extensions["rummiref"]["broker"]
    gid = new_game(app.test_client())["id"]
    real_session, querying, left = events.Session, threading.Event(), threading.Event()

    class QueryUnderWay:
        def __init__(self, engine):
            self.session = real_session(engine)

        def __enter__(self):
            querying.set()
            left.wait(5)                               # the phone leaves meanwhile
            return self.session.__enter__()

        def __exit__(self, *exc):
            return self.session.__exit__(*exc)

    monkeypatch.setattr(events, "Session", QueryUnderWay)
    assert broker.subscribe(gid)
    assert querying.wait(2)
    broker.unsubscribe(gid)
    left.set()
    time.sleep(0.3)                                    # the query ends; more ticks
    assert broker.wait(gid, after=0, timeout=2) is False
