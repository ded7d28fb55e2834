"""The OpenAPI 3.1 document served at ``/api/openapi.json``.

Kept by hand next to ``webapp.api``; ``tests/webapp/test_openapi.py`` checks every route is
described and runs schemathesis against it (responses must match these schemas).
"""

from __future__ import annotations

from typing import Any

import referee

from .ending import TARGET_MAX
from .models import DEVICE_MAX, NAME_MAX, TITLE_MAX
from .idempotency import KEY_MAX as IDEMPOTENCY_KEY_MAX
from .service import MAX_PLAYERS, MIN_PLAYERS, RACK_TEXT_MAX, TIMER_ACTIONS


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _err(description: str) -> dict[str, Any]:
    return _json(_ref("Error"), description)


NAME = {"type": "string", "minLength": 1, "maxLength": NAME_MAX}
TIMESTAMP = {"type": "string", "format": "date-time"}
NULLABLE_TIMESTAMP = {"type": ["string", "null"], "format": "date-time"}
SCORES = {"type": "object", "additionalProperties": {"type": "integer"},
          "description": "player name -> points, in seat order"}
TITLE = {"type": ["string", "null"], "maxLength": TITLE_MAX,
         "description": "a name for the game (null: it is called by its players)"}
TARGET = {"anyOf": [
    {"type": "object", "required": ["kind", "value"], "additionalProperties": False,
     "properties": {"kind": {"enum": ["points", "rounds"]},
                    "value": {"type": "integer", "minimum": 1,
                              "maximum": max(TARGET_MAX.values())}}},
    {"type": "null"}],
    "description": f"what the game is played to: points (1-{TARGET_MAX['points']}; over once a "
                   f"total reaches them) or rounds (1-{TARGET_MAX['rounds']}; over once that "
                   f"many are played). The highest total wins, a tie shares the win. null: the "
                   f"game has no end"}
END = {"over": {"type": "boolean", "description": "the target is reached: no more rounds "
                                                  "(they can still be corrected or undone)"},
       "winners": {"type": "array", "items": NAME,
                   "description": "once over: the highest total (several on a tie)"}}

E400 = _err("Malformed JSON or query parameter")
E401 = _json(_ref("Error"), "No edit token: send Authorization: Bearer <token>")
E401["headers"] = {"WWW-Authenticate": {"schema": {"type": "string"}}}
E403 = _err("The token does not belong to this game")
E404 = _err("No such game (or round)")
E409 = _err("Conflict: the request does not fit the game's current state")
E413 = _err("The body is larger than 64 KiB")
E415 = _err("The body is not sent as application/json")
E422 = _err("Valid JSON that breaks the rules (unknown player, bad rack, ...)")
E503 = _json(_ref("Error"), "The database is busy; retry")
E503["headers"] = {"Retry-After": {"schema": {"type": "string"}}}
E412 = _err("The round changed since this client read it (If-Match): another phone edited it, "
            "or undid it and entered it again. Nothing was changed; the error says who, and "
            "the client should reload the round and decide again")
E429 = _json(_ref("Error"), "Too many new games from this address; retry after Retry-After "
                            "seconds")
E429["headers"] = {"Retry-After": {"schema": {"type": "string"}}}
ETAG = {"ETag": {"schema": {"type": "string"},
                 "description": "the round's version, quoted: send it back as If-Match"}}
IF_MATCH = {"name": "If-Match", "in": "header", "required": False,
            "schema": {"type": "string", "maxLength": 200},
            "description": "the ETag of the round as this client last read it (from GET of the "
                           "round, or \"<version>\" of the round in the game). When the round "
                           "has changed since, nothing is changed and the answer is 412. "
                           "Without it the change is made whatever happened meanwhile."}

GAME_ID = {"name": "game_id", "in": "path", "required": True,
           "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,16}$"},
           "description": "the game's id, as returned when it was created"}
ROUND_NO = {"name": "number", "in": "path", "required": True,
            "schema": {"type": "integer", "minimum": 1, "maximum": 1000000}}
DEVICE = {"name": "X-Rummiref-Device", "in": "header", "required": False,
          "schema": {"type": "string", "maxLength": 200},
          "description": f"a name for this phone, kept in the audit trail (first {DEVICE_MAX} "
                         f"printable characters)"}
IDEMPOTENCY = {"name": "Idempotency-Key", "in": "header", "required": False,
               "schema": {"type": "string", "maxLength": 400},
               "description": f"1-{IDEMPOTENCY_KEY_MAX} printable characters, e.g. a random UUID. "
                              "A retry with the same key and body returns the first answer "
                              "(header Idempotent-Replayed: true) and changes nothing; the same "
                              "key with another body is rejected with 422. Keys are kept for a "
                              "day; the edit token of a game is never stored, a retried create "
                              "is given it again."}
EDIT = [{"bearerAuth": []}]
GAME_ETAG = {"ETag": {"schema": {"type": "string"}, "description": "the game's version"}}


def _schemas() -> dict[str, Any]:
    rack_value = {
        "description": "points (whole number), tiles as text (\"R5 K13 J\"; digits alone are "
                       "points), a list of tiles, or null/omitted for the winner",
        "anyOf": [{"type": "integer"}, {"type": "number"},
                  {"type": "string", "maxLength": RACK_TEXT_MAX},
                  {"type": "array", "items": {"type": "string"}, "maxItems": 106},
                  {"type": "null"}]}
    return {
        "Error": {"type": "object", "required": ["error", "status"],
                  "properties": {"error": {"type": "string", "minLength": 1},
                                 "status": {"type": "integer"},
                                 "field": {"type": "string"}, "player": {"type": "string"},
                                 "token": {"type": "string"}, "game": {"type": "string"},
                                 "round": {"type": "integer"},
                                 "last_round": {"type": ["integer", "null"]},
                                 "winners": {"type": "array", "items": {"type": "string"},
                                             "description": "409: the game is over"},
                                 "changed_by": {"type": "string",
                                                "description": "412: the phone that changed "
                                                               "the round meanwhile"}}},
        "Rules": {"type": "object",
                  "required": ["name", "title", "description", "joker_penalty",
                               "turn_time_limit", "timeout_penalty", "options"],
                  "properties": {"name": {"type": "string"}, "title": {"type": "string"},
                                 "source": {"type": "string"},
                                 "description": {"type": "array", "items": {"type": "string"}},
                                 "joker_penalty": {"type": "integer"},
                                 "turn_time_limit": {"type": ["integer", "null"]},
                                 "timeout_penalty": {"type": ["string", "null"]},
                                 "options": {"type": "object"}}},
        "Presets": {"type": "object", "required": ["default", "presets"],
                    "properties": {"default": {"type": "string"},
                                   "presets": {"type": "array", "items": _ref("Rules")}}},
        "Player": {"type": "object", "required": ["name", "seat"],
                   "properties": {"name": NAME, "seat": {"type": "integer", "minimum": 0}}},
        "Round": {
            "type": "object",
            "required": ["number", "version", "starter", "winner", "went_out", "counted_winner",
                         "racks",
                         "rack_values", "scores", "total", "explanation", "rules", "created_at",
                         "updated_at", "edited"],
            "properties": {
                "number": {"type": "integer", "minimum": 1},
                "version": {"type": "integer", "minimum": 0,
                            "description": "changes whenever the round is written, and never "
                                           "repeats in a game (also for a number entered again "
                                           "after an undo); its ETag is \"<version>\""},
                "starter": NAME,
                "winner": {"type": ["string", "null"],
                           "description": "who went out; null when the pool ran out"},
                "went_out": {"type": "boolean"},
                "counted_winner": {"anyOf": [{"type": "string"},
                                             {"type": "array", "items": {"type": "string"}}],
                                   "description": "who counts as the winner (a list on a tie)"},
                "racks": {"type": "object",
                          "additionalProperties": {"type": ["integer", "string", "null"]},
                          "description": "as entered: tiles (normalised text), points, or null"},
                "rack_values": SCORES, "scores": SCORES,
                "total": {"type": "integer", "const": 0},
                "explanation": {"type": "array", "items": {"type": "string"}},
                "rules": {"type": "string"},
                "created_at": TIMESTAMP, "updated_at": TIMESTAMP,
                "edited": {"type": "boolean"}, "edits": {"type": "integer", "minimum": 0}}},
        "Ranking": {"type": "array", "items": {
            "type": "object", "required": ["rank", "name", "total"],
            "properties": {"rank": {"type": "integer", "minimum": 1}, "name": NAME,
                           "total": {"type": "integer"}}}},
        "Timer": {
            "type": "object",
            "required": ["state", "player", "seat", "turn", "limit", "warning", "elapsed",
                         "remaining", "expired", "started_at", "server_time", "penalty"],
            "properties": {
                "state": {"enum": ["idle", "running", "paused"]},
                "player": NAME, "seat": {"type": "integer", "minimum": 0},
                "turn": {"type": "integer", "minimum": 0},
                "limit": {"type": ["integer", "null"], "description": "seconds per turn"},
                "warning": {"type": ["integer", "null"],
                            "description": "warn this many seconds before the end"},
                "elapsed": {"type": "number", "minimum": 0},
                "remaining": {"type": ["number", "null"],
                              "description": "limit - elapsed at server_time; negative: over time"},
                "expired": {"type": "boolean"},
                "started_at": NULLABLE_TIMESTAMP, "server_time": TIMESTAMP,
                "penalty": {"type": ["string", "null"],
                            "description": "what the preset says happens when time runs out"}}},
        "Game": {
            "type": "object",
            "required": ["id", "created_at", "updated_at", "version", "title", "target", "over",
                         "winners", "rematch", "rematch_of", "rules", "players",
                         "rounds", "totals", "ranking", "next_round", "next_starter", "timer",
                         "links"],
            "properties": {
                "id": {"type": "string"}, "created_at": TIMESTAMP, "updated_at": TIMESTAMP,
                "version": {"type": "integer", "minimum": 0}, "title": TITLE, "target": TARGET,
                **END,
                "rematch": {"type": ["string", "null"],
                            "description": "the id of this game's rematch, once there is one"},
                "rematch_of": {"type": ["string", "null"],
                               "description": "the game this one is a rematch of (while it "
                                              "exists)"},
                "rules": _ref("Rules"),
                "players": {"type": "array", "items": _ref("Player"),
                            "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS},
                "rounds": {"type": "array", "items": _ref("Round")},
                "totals": SCORES, "ranking": _ref("Ranking"),
                "next_round": {"type": "integer", "minimum": 1}, "next_starter": NAME,
                "timer": _ref("Timer"),
                "links": {"type": "object", "additionalProperties": {"type": "string"}}}},
        "GameCreated": {
            "type": "object", "required": ["id", "token", "url", "game"],
            "properties": {"id": {"type": "string"},
                           "token": {"type": "string", "minLength": 20,
                                     "description": "the edit token; shown only here"},
                           "url": {"type": "string"}, "game": _ref("Game")}},
        "GameSummary": {
            "type": "object",
            "required": ["id", "created_at", "updated_at", "title", "target", "over", "winners",
                         "rules", "rules_title", "players", "rounds", "totals", "leaders"],
            "properties": {"id": {"type": "string"}, "created_at": TIMESTAMP,
                           "updated_at": TIMESTAMP, "title": TITLE, "target": TARGET, **END,
                           "rules": {"type": "string"},
                           "rules_title": {"type": "string"},
                           "players": {"type": "array", "items": NAME},
                           "rounds": {"type": "integer", "minimum": 0}, "totals": SCORES,
                           "leaders": {"type": "array", "items": NAME}}},
        "GameList": {"type": "object", "required": ["games", "total", "limit", "offset"],
                     "properties": {"games": {"type": "array", "items": _ref("GameSummary")},
                                    "total": {"type": "integer", "minimum": 0},
                                    "limit": {"type": "integer"}, "offset": {"type": "integer"}}},
        "NewGame": {
            "type": "object", "required": ["players"], "additionalProperties": False,
            "examples": [{"players": ["Ann", "Ben", "Cy"], "rules": "sabra"}],
            "properties": {
                "players": {"type": "array", "items": {"type": "string"},
                            "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS,
                            "description": f"names in seat order: {MIN_PLAYERS}-{MAX_PLAYERS}, "
                                           f"1-{NAME_MAX} characters, unique ignoring case"},
                "rules": {"type": ["string", "null"],
                          "description": "rule preset: " + ", ".join(referee.PRESETS)
                                         + f" (default {referee.DEFAULT_PRESET})"},
                "title": TITLE, "target": TARGET,
                "device": {"type": ["string", "null"],
                           "description": "a name for this phone, for the audit trail"}}},
        "GameSettings": {
            "type": "object", "additionalProperties": False, "minProperties": 1,
            "examples": [{"title": "Friday at Ann's"}, {"target": {"kind": "rounds", "value": 8}}],
            "properties": {"title": TITLE, "target": TARGET,
                           "device": {"type": ["string", "null"]}}},
        "GameDeleted": {
            "type": "object", "required": ["deleted", "players", "rounds"],
            "properties": {"deleted": {"type": "string", "description": "the game's id"},
                           "players": {"type": "array", "items": NAME},
                           "rounds": {"type": "integer", "minimum": 0}}},
        "Rematch": {
            "type": "object", "required": ["id", "url", "game"],
            "properties": {"id": {"type": "string"}, "url": {"type": "string"},
                           "game": _ref("Game")}},
        "RoundInput": {
            "type": "object", "required": ["winner", "racks"], "additionalProperties": False,
            "examples": [{"winner": "Ann", "racks": {"Ben": "R5 K13 J", "Cy": 12}},
                         {"winner": None, "racks": {"Ann": 4, "Ben": "B1 B2", "Cy": 9}}],
            "properties": {
                "winner": {"type": ["string", "null"],
                           "description": "who went out, or null when the pool ran out"},
                "racks": {"type": "object", "additionalProperties": rack_value,
                          "description": "every player except the winner: what is left on "
                                         "their rack (names match ignoring case)"},
                "device": {"type": ["string", "null"]}}},
        "RoundChange": {
            "type": "object",
            "required": ["round", "scores", "totals", "ranking", "over", "winners", "next_round",
                         "next_starter", "timer", "version"],
            "properties": {"round": _ref("Round"), "scores": SCORES, "totals": SCORES,
                           "ranking": _ref("Ranking"), **END,
                           "next_round": {"type": "integer", "minimum": 1},
                           "next_starter": NAME, "timer": _ref("Timer"),
                           "version": {"type": "integer"}}},
        "RoundUndone": {
            "type": "object",
            "required": ["deleted", "totals", "ranking", "over", "winners", "next_round",
                         "next_starter", "timer", "version"],
            "properties": {"deleted": _ref("Round"), "totals": SCORES,
                           "ranking": _ref("Ranking"), **END,
                           "next_round": {"type": "integer", "minimum": 1},
                           "next_starter": NAME, "timer": _ref("Timer"),
                           "version": {"type": "integer"}}},
        "RackPreviewInput": {
            "type": "object", "required": ["tiles"], "additionalProperties": False,
            "examples": [{"tiles": "R5 K13 J", "rules": "sabra"}],
            "properties": {"tiles": {"anyOf": [
                               {"type": "string", "maxLength": RACK_TEXT_MAX},
                               {"type": "array", "items": {"type": "string"}, "maxItems": 106}]},
                           "rules": {"type": ["string", "null"]}}},
        "RackPreview": {
            "type": "object", "required": ["tiles", "value", "count", "rules"],
            "properties": {"tiles": {"type": "string"}, "value": {"type": "integer", "minimum": 0},
                           "count": {"type": "integer", "minimum": 0},
                           "rules": {"type": "string"}}},
        "TimerAction": {
            "type": "object", "required": ["action"], "additionalProperties": False,
            "examples": [{"action": "next"}, {"action": "start", "player": "Ben"}],
            "properties": {"action": {"enum": list(TIMER_ACTIONS),
                                      "description": "start (or resume), next (next seat, "
                                                     "fresh turn), pause, reset"},
                           "player": {"type": ["string", "null"],
                                      "description": "start/next only: jump to this player"},
                           "device": {"type": ["string", "null"]}}},
        "Audit": {"type": "object", "required": ["entries"], "properties": {"entries": {
            "type": "array", "items": {
                "type": "object",
                "required": ["id", "at", "actor", "action", "round", "before", "after"],
                "properties": {"id": {"type": "integer"}, "at": TIMESTAMP,
                               "actor": {"type": "string"},
                               "action": {"enum": ["create-game", "edit-game", "add-round",
                                                   "edit-round", "undo-round"]},
                               "round": {"type": ["integer", "null"]},
                               "before": {"type": ["object", "null"]},
                               "after": {"type": ["object", "null"]}}}}}},
        "PlayerRecords": {"type": "object", "required": ["players"], "properties": {"players": {
            "type": "array", "items": {
                "type": "object",
                "required": ["name", "games", "won", "total_score", "rounds", "rounds_won",
                             "last_played"],
                "properties": {"name": NAME, "games": {"type": "integer", "minimum": 0},
                               "won": {"type": "integer", "minimum": 0},
                               "total_score": {"type": "integer"},
                               "rounds": {"type": "integer", "minimum": 0},
                               "rounds_won": {"type": "integer", "minimum": 0},
                               "last_played": NULLABLE_TIMESTAMP}}}}},
    }


def document() -> dict[str, Any]:
    body = lambda ref: {"required": True,  # noqa: E731
                        "content": {"application/json": {"schema": _ref(ref)}}}
    write_errors = {"400": E400, "401": E401, "403": E403, "404": E404, "413": E413,
                    "415": E415, "422": E422, "503": E503}
    paths = {
        "/api/presets": {"get": {
            "operationId": "listPresets", "summary": "The rule presets a game can use",
            "responses": {"200": _json(_ref("Presets"), "Every preset, with its rules in words")}}},
        "/api/rack-value": {"post": {
            "operationId": "rackValue",
            "summary": "What a rack is worth under a preset (nothing is saved; no token)",
            "requestBody": body("RackPreviewInput"),
            "responses": {"200": _json(_ref("RackPreview"), "The rack's value"),
                          "400": E400, "413": E413, "415": E415, "422": E422}}},
        "/api/games": {
            "get": {"operationId": "listGames", "summary": "Past and current games, newest first",
                    "parameters": [
                        {"name": "limit", "in": "query",
                         "schema": {"type": "integer", "minimum": 1, "maximum": 200}},
                        {"name": "offset", "in": "query",
                         "schema": {"type": "integer", "minimum": 0, "maximum": 10**9}},
                        {"name": "player", "in": "query", "schema": {"type": "string"},
                         "description": "only games with this player (ignoring case)"}],
                    "responses": {"200": _json(_ref("GameList"), "A page of games"),
                                  "400": E400}},
            "post": {"operationId": "createGame",
                     "summary": "Start a game; the answer holds its edit token (shown once)",
                     "description": "At most GAME_CREATION_LIMIT new games per client address "
                                    "(default 20 a minute, 200 a day).",
                     "parameters": [IDEMPOTENCY, DEVICE], "requestBody": body("NewGame"),
                     "responses": {"201": {**_json(_ref("GameCreated"), "Created"),
                                           "headers": {"Location": {
                                               "schema": {"type": "string"}}}},
                                   "400": E400, "409": _err("A retried create whose token "
                                                            "cannot be given again: start a "
                                                            "new game"),
                                   "413": E413, "415": E415, "422": E422, "429": E429,
                                   "503": E503}}},
        "/api/games/{game_id}": {
            "get": {"operationId": "getGame",
                    "summary": "Players, rounds, totals, ranking, timer, target and winners",
                    "parameters": [GAME_ID],
                    "responses": {"200": {**_json(_ref("Game"), "The game"),
                                          "headers": GAME_ETAG},
                                  "404": E404}},
            "patch": {"operationId": "editGame",
                      "summary": "Rename the game or change its target (null clears either)",
                      "security": EDIT, "parameters": [GAME_ID, DEVICE],
                      "requestBody": body("GameSettings"),
                      "responses": {"200": {**_json(_ref("Game"), "The game as changed"),
                                            "headers": GAME_ETAG},
                                    **write_errors}},
            "delete": {"operationId": "deleteGame",
                       "summary": "Delete the game with its rounds and change log; phones "
                                  "following it get the game-deleted event",
                       "security": EDIT, "parameters": [GAME_ID],
                       "responses": {"200": _json(_ref("GameDeleted"), "What was deleted"),
                                     "401": E401, "403": E403, "404": E404, "503": E503}}},
        "/api/games/{game_id}/rematch": {"post": {
            "operationId": "rematch",
            "summary": "Once the game is over: a new game with the same players, seats, rules, "
                       "target and title, edited with the same token",
            "description": "A game has one rematch: asking again answers it with 200. The game "
                           "itself gets a rematch event with the new game's id. No body is "
                           "needed ({\"device\": ...} at most).",
            "security": EDIT, "parameters": [GAME_ID, DEVICE],
            "responses": {"201": {**_json(_ref("Rematch"), "The new game"),
                                  "headers": {"Location": {"schema": {"type": "string"}}}},
                          "200": {**_json(_ref("Rematch"), "The rematch there already is"),
                                  "headers": {"Location": {"schema": {"type": "string"}}}},
                          **write_errors,
                          "409": _err("The game is not over (or has no target)")}}},
        "/api/games/{game_id}/rounds": {"post": {
            "operationId": "addRound", "summary": "Enter a round; scored by the game's preset",
            "security": EDIT, "parameters": [GAME_ID, IDEMPOTENCY, DEVICE],
            "requestBody": body("RoundInput"),
            "responses": {"201": {**_json(_ref("RoundChange"), "The round as scored"),
                                  "headers": {"Location": {"schema": {"type": "string"}},
                                              **ETAG}},
                          **write_errors, "409": E409}}},
        "/api/games/{game_id}/rounds/{number}": {
            "get": {"operationId": "getRound", "parameters": [GAME_ID, ROUND_NO],
                    "responses": {"200": {**_json(_ref("Round"), "The round"), "headers": ETAG},
                                  "404": E404}},
            "put": {"operationId": "editRound", "summary": "Correct a round; it is scored again",
                    "security": EDIT, "parameters": [GAME_ID, ROUND_NO, IF_MATCH, DEVICE],
                    "requestBody": body("RoundInput"),
                    "responses": {"200": {**_json(_ref("RoundChange"), "The round as re-scored"),
                                          "headers": ETAG},
                                  **write_errors, "409": E409, "412": E412}},
            "delete": {"operationId": "undoRound", "summary": "Undo the last round (only the last)",
                       "security": EDIT, "parameters": [GAME_ID, ROUND_NO, IF_MATCH, DEVICE],
                       "responses": {"200": _json(_ref("RoundUndone"), "The removed round"),
                                     "401": E401, "403": E403, "404": E404,
                                     "409": _err("Not the last round: edit it instead"),
                                     "412": E412, "503": E503}}},
        "/api/games/{game_id}/audit": {"get": {
            "operationId": "getAudit", "summary": "Who changed what, oldest first",
            "parameters": [GAME_ID],
            "responses": {"200": _json(_ref("Audit"), "The audit trail"), "404": E404}}},
        "/api/games/{game_id}/export.csv": {"get": {
            "operationId": "exportCsv",
            "summary": "One row per round, a column per player, a totals row",
            "parameters": [GAME_ID],
            "responses": {"200": {"description": "CSV (UTF-8 with byte-order mark)",
                                  "content": {"text/csv": {"schema": {"type": "string"}}}},
                          "404": E404}}},
        "/api/players": {"get": {
            "operationId": "playerRecords", "summary": "Each player's record across all games",
            "responses": {"200": _json(_ref("PlayerRecords"), "Records, best first")}}},
        "/api/games/{game_id}/timer": {
            "get": {"operationId": "getTimer", "parameters": [GAME_ID],
                    "responses": {"200": _json(_ref("Timer"), "The table's turn timer"),
                                  "404": E404}},
            "post": {"operationId": "timerAction", "summary": "Start, next player, pause, reset",
                     "security": EDIT, "parameters": [GAME_ID, DEVICE],
                     "requestBody": body("TimerAction"),
                     "responses": {"200": _json(_ref("Timer"), "The timer after the action"),
                                   **write_errors, "409": E409}}},
        "/api/games/{game_id}/events": {"get": {
            "operationId": "gameEvents",
            "summary": "Server-sent events: hello, round-added, round-edited, round-undone, timer, "
                       "game-edited, rematch, game-deleted",
            "description": "Each event's id is the game version after the change; reconnecting "
                           "with Last-Event-ID (or ?after=) replays what was missed.",
            "parameters": [GAME_ID,
                           {"name": "after", "in": "query",
                            "schema": {"type": "integer", "minimum": 0}},
                           {"name": "Last-Event-ID", "in": "header",
                            "schema": {"type": "string"}}],
            "responses": {"200": {"description": "An endless text/event-stream",
                                  "content": {"text/event-stream": {
                                      "schema": {"type": "string"}}}},
                          "400": E400, "404": E404}}},
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "rummiref scoresheet API", "version": "1",
                 "description": "Scores every Rummikub round with rummiref's referee. Reads need "
                                "no token; changes need the game's edit token. Errors are JSON "
                                "{error, status}, and a rejected request changes nothing."},
        "paths": paths,
        "components": {"schemas": _schemas(),
                       "securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}}},
    }
