"""The OpenAPI document: it covers every API route, and the API keeps to it under property-based
testing with schemathesis (bounded: a few dozen examples per operation)."""

from __future__ import annotations

import re

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (content_type_conformance,  # noqa: E402
                                               response_headers_conformance,
                                               response_schema_conformance,
                                               status_code_conformance)

from webapp.openapi import document  # noqa: E402
from tests.webapp.webhelpers import new_game  # noqa: E402

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance, response_headers_conformance]


def test_every_api_route_is_documented(sqlite_app):
    app = sqlite_app
    doc = app.test_client().get("/api/openapi.json").get_json()
    assert doc == document()
    assert doc["openapi"].startswith("3.1")
    documented = {(path, method.upper()) for path, ops in doc["paths"].items() for method in ops}
    routed = set()
    for rule in app.url_map.iter_rules():
        if not rule.endpoint.startswith("api.") or rule.rule in ("/api", "/api/",
                                                                 "/api/openapi.json"):
            continue
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            routed.add((path, method))
    assert routed == documented


@pytest.fixture
def table(sqlite_app):
    """A real game with a round in it: generated requests are aimed at it, with its token.
    (The property-based test runs on SQLite only: the API layer is the same on both.)"""
    client = sqlite_app.test_client()
    g = new_game(client)
    r = client.post(f"/api/games/{g['id']}/rounds", headers=g["headers"],
                    json={"winner": "Ann", "racks": {"Ben": 3, "Cy": "R1 J"}})
    assert r.status_code == 201
    return g


# The document as the app serves it (test_every_api_route_is_documented checks that), minus the
# event stream, which never ends by design (tests/webapp/test_live.py covers it).
schema = (schemathesis.openapi.from_dict(document())
          .exclude(path="/api/games/{game_id}/events"))


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_keeps_to_its_openapi_document(case, sqlite_app, table):
    if "game_id" in (case.path_parameters or {}):
        case.path_parameters["game_id"] = table["id"]
    if case.operation.method.upper() in ("POST", "PUT", "DELETE"):
        # Reach past the token check to the game logic (tokens are tested in test_api.py).
        case.headers = {**(case.headers or {}), **table["headers"]}
    case.call_and_validate(app=sqlite_app, checks=CHECKS)
