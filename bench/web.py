"""Load test of the phone scoresheet: many phones entering rounds and reading totals at once.

Starts a real server (``python -m webapp.cli serve``, the same waitress server as
``rummiref serve``) on loopback with a fresh database, then runs ``--clients`` phones for
``--duration`` seconds. Phones sit two to a table (one game per table); each phone repeats:
enter a round (POST, with an Idempotency-Key), read the game with its totals (GET), optionally
wait about ``--think`` seconds after each (then the phones' first requests are spread over the
first 2 x think seconds, as phones at different tables do not tap in step). A table starts a new game every ``--rounds-per-game`` rounds. One more
connection per table listens to the game's server-sent events, like a third phone, and times how
long a new round takes to reach it (from the moment the POST was sent).

Prints throughput, p50/p90/p99/max latency, errors, and the SSE delivery times.

    python bench/web.py                       # 50 phones, 30 s, closed loop (no think time)
    python bench/web.py --think 0.5           # each phone waits 0.5 s between requests
    python bench/web.py --database-url postgresql://postgres@127.0.0.1:5432/test
    python bench/web.py --url http://127.0.0.1:5000   # an already running server

The client is a small asyncio HTTP/1.1 client with keep-alive (one connection per phone), so
the measuring side costs little CPU next to the server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parents[1]
NAMES = ["Ann", "Ben", "Cy", "Dee"]
COLOURS = "KBOR"


class HTTPError(Exception):
    pass


class Conn:
    """One keep-alive HTTP/1.1 connection."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader: Optional[asyncio.StreamReader] = None
        self.writer: Optional[asyncio.StreamWriter] = None

    async def _open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except (ConnectionError, OSError):
                pass
        self.reader = self.writer = None

    async def send(self, method: str, path: str, body: Any = None,
                   headers: Optional[dict] = None) -> None:
        if self.writer is None:
            await self._open()
        data = b"" if body is None else json.dumps(body).encode()
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}",
                 f"Content-Length: {len(data)}"]
        if body is not None:
            lines.append("Content-Type: application/json")
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
        await self.writer.drain()

    async def head(self) -> tuple[int, dict[str, str]]:
        status_line = await self.reader.readline()
        if not status_line:
            raise HTTPError("connection closed by the server")
        status = int(status_line.split()[1])
        headers = {}
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            k, _, v = line.decode("latin-1").partition(":")
            headers[k.strip().lower()] = v.strip()
        return status, headers

    async def chunk(self) -> bytes:
        size = int((await self.reader.readline()).split(b";")[0], 16)
        data = await self.reader.readexactly(size) if size else b""
        await self.reader.readline()
        return data

    async def request(self, method: str, path: str, body: Any = None,
                      headers: Optional[dict] = None) -> tuple[int, Any]:
        await self.send(method, path, body, headers)
        status, hdrs = await self.head()
        if "content-length" in hdrs:
            raw = await self.reader.readexactly(int(hdrs["content-length"]))
        elif hdrs.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                c = await self.chunk()
                if not c:
                    break
                parts.append(c)
            raw = b"".join(parts)
        else:
            raw = await self.reader.read()
        if hdrs.get("connection", "").lower() == "close":
            await self.close()
        payload = json.loads(raw) if hdrs.get("content-type", "").startswith("application/json") \
            else raw
        return status, payload


@dataclass
class Table:
    game: str
    token: str
    version: int = 0  # bumped when the table moves to a new game


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: {"POST round": [],
                                                                        "GET game": [],
                                                                        "POST game": []})
    errors: dict[str, int] = field(default_factory=dict)
    sent: dict[tuple[str, int], float] = field(default_factory=dict)      # (game, round) -> t
    seen: dict[tuple[str, int], float] = field(default_factory=dict)      # (game, round) -> t
    running: bool = True

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


def random_rack(rng: random.Random, used: set) -> Any:
    if rng.random() < 0.5:
        return rng.randint(0, 90)
    tiles = []
    for _ in range(rng.randint(1, 6)):
        t = "J" if rng.random() < 0.05 else f"{rng.choice(COLOURS)}{rng.randint(1, 13)}"
        if t in used:  # at most one copy per round here: never a third copy
            continue
        used.add(t)
        tiles.append(t)
    return " ".join(tiles) or 0


async def new_game(conn: Conn, stats: Stats) -> Table:
    t0 = time.perf_counter()
    status, data = await conn.request("POST", "/api/games", {"players": NAMES, "rules": "sabra"},
                                      {"Idempotency-Key": str(uuid.uuid4())})
    stats.latencies["POST game"].append(time.perf_counter() - t0)
    if status != 201:
        stats.error(f"POST game -> {status}")
        raise HTTPError(f"could not create a game: {status} {data}")
    return Table(data["id"], data["token"])


async def phone(i: int, table: Table, url: tuple[str, int], stats: Stats, think: float,
                rounds_per_game: int, seed: int) -> None:
    rng = random.Random(seed * 1000 + i)
    conn = Conn(*url)
    if think:  # phones at different tables do not tap in step: spread their first request
        await asyncio.sleep(rng.uniform(0, 2 * think))
    try:
        while stats.running:
            game, token = table.game, table.token
            winner = rng.choice(NAMES)
            used: set = set()
            racks = {p: random_rack(rng, used) for p in NAMES if p != winner}
            t0 = time.perf_counter()
            try:
                status, data = await conn.request(
                    "POST", f"/api/games/{game}/rounds", {"winner": winner, "racks": racks},
                    {"Authorization": f"Bearer {token}", "Idempotency-Key": str(uuid.uuid4()),
                     "X-Rummiref-Device": f"bench phone {i}"})
            except (OSError, HTTPError, asyncio.IncompleteReadError) as e:
                stats.error(f"POST round: {type(e).__name__}")
                await conn.close()
                continue
            stats.latencies["POST round"].append(time.perf_counter() - t0)
            if status != 201:
                stats.error(f"POST round -> {status}")
            else:
                number = data["round"]["number"]
                stats.sent[(game, number)] = t0
                if number >= rounds_per_game and table.game == game:
                    fresh = await new_game(conn, stats)
                    if table.game == game:  # the other phone may have moved on already
                        table.game, table.token = fresh.game, fresh.token
                        table.version += 1
            if think:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            t0 = time.perf_counter()
            try:
                status, data = await conn.request("GET", f"/api/games/{table.game}")
            except (OSError, HTTPError, asyncio.IncompleteReadError) as e:
                stats.error(f"GET game: {type(e).__name__}")
                await conn.close()
                continue
            stats.latencies["GET game"].append(time.perf_counter() - t0)
            if status != 200 or "totals" not in data:
                stats.error(f"GET game -> {status}")
            if think:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
    finally:
        await conn.close()


async def watcher(table: Table, url: tuple[str, int], stats: Stats) -> None:
    """A phone that only listens: times each round-added event's arrival."""
    while stats.running:
        game, version = table.game, table.version
        conn = Conn(*url)
        try:
            await conn.send("GET", f"/api/games/{game}/events", None,
                            {"Accept": "text/event-stream"})
            status, hdrs = await conn.head()
            if status != 200:
                stats.error(f"SSE -> {status}")
                await asyncio.sleep(1)
                continue
            buf = ""
            while stats.running and table.version == version:
                try:
                    data = await asyncio.wait_for(conn.chunk(), timeout=0.5)
                except asyncio.TimeoutError:
                    continue
                if not data:
                    break
                buf += data.decode()
                while "\n\n" in buf:
                    raw, buf = buf.split("\n\n", 1)
                    fields = dict(line.split(": ", 1) for line in raw.splitlines()
                                  if ": " in line and not line.startswith(":"))
                    if fields.get("event") == "round-added":
                        number = json.loads(fields["data"])["round"]["number"]
                        stats.seen.setdefault((game, number), time.perf_counter())
        except (OSError, HTTPError, asyncio.IncompleteReadError, ValueError) as e:
            if stats.running:
                stats.error(f"SSE: {type(e).__name__}")
                await asyncio.sleep(0.2)
        finally:
            await conn.close()


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, int(round(p / 100 * len(values) + 0.5)) - 1))
    return values[k]


async def run(url: str, clients: int, duration: float, think: float, rounds_per_game: int,
              seed: int, watch: bool) -> dict:
    parts = urlsplit(url)
    addr = (parts.hostname, parts.port or 80)
    stats = Stats()
    setup = Conn(*addr)
    tables = [await new_game(setup, stats) for _ in range((clients + 1) // 2)]
    await setup.close()
    stats.latencies["POST game"].clear()
    tasks = []
    if watch:
        tasks += [asyncio.create_task(watcher(t, addr, stats)) for t in tables]
        await asyncio.sleep(0.5)  # let the listeners connect
    t_start = time.perf_counter()
    tasks += [asyncio.create_task(phone(i, tables[i // 2], addr, stats, think, rounds_per_game,
                                        seed)) for i in range(clients)]
    await asyncio.sleep(duration)
    stats.running = False
    elapsed = time.perf_counter() - t_start
    await asyncio.sleep(1.0)  # let the last events arrive
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    all_lat = [x for v in stats.latencies.values() for x in v]
    sse = [stats.seen[k] - t for k, t in stats.sent.items() if k in stats.seen]
    ms = lambda xs, p: round(pct(xs, p) * 1000, 1)  # noqa: E731
    out = {
        "clients": clients, "duration_s": round(elapsed, 1), "think_s": think,
        "requests": len(all_lat), "throughput_rps": round(len(all_lat) / elapsed, 1),
        "rounds_entered": len(stats.latencies["POST round"]),
        "errors": sum(stats.errors.values()), "error_kinds": stats.errors,
        "latency_ms": {"all": {"p50": ms(all_lat, 50), "p90": ms(all_lat, 90),
                               "p99": ms(all_lat, 99), "max": ms(all_lat, 100)}},
    }
    for name, xs in stats.latencies.items():
        if xs:
            out["latency_ms"][name] = {"n": len(xs), "p50": ms(xs, 50), "p99": ms(xs, 99),
                                       "max": ms(xs, 100)}
    out["sse"] = {"rounds_posted": len(stats.sent), "rounds_seen": len(sse),
                  "p50_ms": ms(sse, 50), "p99_ms": ms(sse, 99), "max_ms": ms(sse, 100),
                  "mean_ms": round(statistics.fmean(sse) * 1000, 1) if sse else None}
    return out


def scratch_schema(url: str):
    """A fresh PostgreSQL schema for the run (so the bench never touches real data), and a
    function that drops it."""
    import secrets

    sys.path.insert(0, str(REPO))
    from sqlalchemy import create_engine, text

    from webapp.db import normalize_url

    name = "bench_" + secrets.token_hex(4)
    engine = create_engine(normalize_url(url), isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{name}"'))

    def drop() -> None:
        with engine.connect() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
        engine.dispose()

    return name, drop


def start_server(args, folder: str) -> tuple[subprocess.Popen, str]:
    cmd = [sys.executable, "-m", "webapp.cli", "serve", "--port", "0", "--instance", folder,
           "--threads", str(args.threads)]
    if args.database_url:
        cmd += ["--database-url", args.database_url]
    env = dict(os.environ)
    # Every simulated phone comes from this one address: the per-address limit on new games
    # (a guard against strangers filling the history) would count them all as one phone.
    env["RUMMIREF_GAME_CREATION_LIMIT"] = "100000 per minute"
    if args.database_schema:
        env["DATABASE_SCHEMA"] = args.database_schema
    if args.sqlite_synchronous:
        env["RUMMIREF_SQLITE_SYNCHRONOUS"] = args.sqlite_synchronous
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    line = proc.stdout.readline()
    if not line.startswith("rummiref scoresheet: "):
        proc.kill()
        raise SystemExit(f"the server did not start: {line}{proc.stderr.read()}")
    return proc, line.split(": ", 1)[1].strip().rstrip("/")


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--clients", type=int, default=50, help="phones (default 50)")
    p.add_argument("--duration", type=float, default=30.0, help="seconds (default 30)")
    p.add_argument("--think", type=float, default=0.0,
                   help="mean seconds a phone waits after each request (default 0: flat out)")
    p.add_argument("--rounds-per-game", type=int, default=20,
                   help="a table starts a new game after this many rounds (default 20)")
    p.add_argument("--threads", type=int, default=128, help="server threads (default 128)")
    p.add_argument("--no-sse", action="store_true", help="no event-stream listeners")
    p.add_argument("--database-url", help="server database (default: fresh SQLite file)")
    p.add_argument("--database-schema",
                   help="PostgreSQL schema for the server's tables (default: a scratch schema, "
                        "dropped afterwards)")
    p.add_argument("--sqlite-synchronous", choices=["FULL", "NORMAL"],
                   help="the server's SQLite synchronous mode (default: the app's, FULL)")
    p.add_argument("--url", help="use this running server instead of starting one")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)

    proc = None
    dropper = None
    if args.database_url and not args.database_schema and not args.url:
        args.database_schema, dropper = scratch_schema(args.database_url)
    with tempfile.TemporaryDirectory(prefix="rummiref-bench-") as folder:
        try:
            if args.url:
                url = args.url.rstrip("/")
            else:
                proc, url = start_server(args, folder)
            result = asyncio.run(run(url, args.clients, args.duration, args.think,
                                     args.rounds_per_game, args.seed, not args.no_sse))
        finally:
            if proc is not None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
            if dropper is not None:
                dropper()
    result["command"] = "python bench/web.py " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    result["database"] = ("PostgreSQL" if args.database_url else "(given server)" if args.url
                          else f"SQLite (WAL, synchronous={args.sqlite_synchronous or 'FULL'})")
    result["load_average_after"] = os.getloadavg() if hasattr(os, "getloadavg") else None
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    lat = result["latency_ms"]
    print(f"{result['command']}")
    if result["load_average_after"]:
        print("machine load average after the run (1/5/15 min): "
              + " / ".join(f"{x:.1f}" for x in result["load_average_after"])
              + f" on {os.cpu_count()} CPUs")
    print(f"server: waitress, {args.threads} threads, {result['database']}; "
          f"{result['clients']} phones ({(result['clients'] + 1) // 2} tables) for "
          f"{result['duration_s']} s, think time {args.think} s")
    print(f"requests: {result['requests']} ({result['throughput_rps']}/s), rounds entered: "
          f"{result['rounds_entered']}, errors: {result['errors']} {result['error_kinds'] or ''}")
    print(f"latency all requests: p50 {lat['all']['p50']} ms, p90 {lat['all']['p90']} ms, "
          f"p99 {lat['all']['p99']} ms, max {lat['all']['max']} ms")
    for name in ("POST round", "GET game", "POST game"):
        if name in lat:
            v = lat[name]
            print(f"  {name:<11} n={v['n']:<6} p50 {v['p50']} ms, p99 {v['p99']} ms, "
                  f"max {v['max']} ms")
    s = result["sse"]
    if s["rounds_seen"]:
        print(f"new round -> another phone (SSE), from POST sent: p50 {s['p50_ms']} ms, "
              f"p99 {s['p99_ms']} ms, max {s['max_ms']} ms ({s['rounds_seen']} of "
              f"{s['rounds_posted']} rounds timed)")
    return 0 if result["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
