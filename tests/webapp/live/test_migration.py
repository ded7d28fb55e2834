"""A database whose live rounds were saved before the turn log was kept gets one for each
round when it is upgraded: its turns, whose turn it is and the table to restore carry on."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from sqlalchemy import text

from webapp import create_app, db as dbmod, migrate


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def old_db(request, tmp_path):
    """(config for create_app, engine) of a database at the live referee's first schema."""
    cfg = {"INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "test", "TESTING": True}
    schema = None
    if request.param == "sqlite":
        cfg["DATABASE_URL"] = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    else:
        from tests.webapp.databases import PG_URL, PgSchema, require_postgres

        require_postgres()
        schema = PgSchema()
        cfg.update(DATABASE_URL=PG_URL, DATABASE_SCHEMA=schema.name)
    engine = dbmod.make_engine(cfg["DATABASE_URL"], schema=cfg.get("DATABASE_SCHEMA"))
    migrate.upgrade(engine, "live0001")
    yield cfg, engine
    engine.dispose()
    if schema is not None:
        schema.drop()


def test_live_rounds_saved_before_the_turn_log_carry_on(old_db):
    from webapp.service import hash_token

    cfg, engine = old_db
    now = datetime(2026, 11, 20, tzinfo=timezone.utc)
    tables = {1: "K5 B5 O5", 2: "K5 B5 O5 | R10 R11 R12", 3: "K5 B5 O5 | R10 R11 R12 | B1 B2 B3",
              4: "K5 B5 O5 | R10 R11 R12"}
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO games (id, created_at, updated_at, rules, token_hash, owner_device, "
            "version, timer_state, timer_seat, timer_turn, timer_elapsed_ms) VALUES "
            "('g1', :t, :t, 'sabra', :h, 'owner', 9, 'idle', 0, 0, 0)"),
            {"t": now, "h": hash_token("tok")})
        for seat, name in enumerate(["Ann", "Ben", "Cy"]):
            conn.execute(text("INSERT INTO players (game_id, seat, name, name_key) VALUES "
                              "('g1', :s, :n, :k)"), {"s": seat, "n": name, "k": name.lower()})
        # Ann opened, Ben failed and put his tiles back; Cy is to move, the table restored
        conn.execute(text("INSERT INTO live_sessions (id, game_id, started_at, seat, "
                          "base_snapshot_id, restore_pending) VALUES (1, 'g1', :t, 2, 4, :f)"),
                     {"t": now, "f": False})
        for sid, table in tables.items():
            conn.execute(text('INSERT INTO live_snapshots (id, session_id, at, "table", reading) '
                              "VALUES (:i, 1, :t, :tb, :r)"),
                         {"i": sid, "t": now, "tb": table, "r": '{"tiles": [], "melds": []}'})
        for number, player, seat, before, after, legal in ((1, "Ann", 0, 1, 2, True),
                                                           (2, "Ben", 1, 2, 3, False)):
            conn.execute(text(
                "INSERT INTO live_turns (session_id, number, at, player, seat, before_id, "
                "after_id, reason, verdict, legal, corrections, delay) VALUES (1, :n, :t, :p, "
                ":s, :b, :a, 'still', :v, :l, '[]', NULL)"),
                {"n": number, "t": now, "p": player, "s": seat, "b": before, "a": after,
                 "v": '{"legal": %s, "summary": "old words"}' % str(legal).lower(), "l": legal})
        if engine.dialect.name == "postgresql":  # the ids above were given, not drawn
            for table in ("live_sessions", "live_snapshots"):
                conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), 10)"))
    app = create_app(cfg)  # upgrades to head
    try:
        c = app.test_client()
        turns = c.get("/api/games/g1/live/turns").get_json()["turns"]
        assert [(t["player"], t["legal"]) for t in turns] == [("Ann", True), ("Ben", False)]
        assert turns[1]["verdict"]["violations"][0]["code"] == "initial-meld-too-low"
        st = c.get("/api/games/g1/live").get_json()
        assert st["next_player"] == "Cy" and not st["restore_pending"]
        assert st["table"] == "K5 B5 O5 | R10 R11 R12"
        # the round goes on from where it was
        r = c.post("/api/games/g1/live/snapshots",
                   json={"reading": {"table": "K5 B5 O5 | R10 R11 R12 | K13 B13 O13"}},
                   headers={"Authorization": "Bearer tok"})
        assert r.status_code == 201
        assert (r.get_json()["turn"]["player"], r.get_json()["turn"]["legal"]) == ("Cy", True)
    finally:
        app.extensions["rummiref"]["engine"].dispose()
    migrate.downgrade(engine, "live0001")   # and back
    assert migrate.current_revision(engine) == "live0001"
