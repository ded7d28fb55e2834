"""Browser tests: Playwright driving Debian's Chromium against a live rummiref server.

Every test gets a fresh app (its own SQLite database in tmp_path) served by the same waitress
server ``rummiref serve`` runs, and phones with a 390x844 viewport. Screenshots go to
``artifacts/browser/`` (kept as test artifacts; the folder is git-ignored).

Chromium is Debian's package (``apt-get install -y chromium``); Playwright's own browser
download does not work on these machines. Without it these tests FAIL with the install hint
(set RUMMIREF_SKIP_BROWSER=1 to skip them on purpose, never in CI).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

# The `browser` fixture (one Playwright and Chromium for the whole run, shared with the live
# referee's page tests) is in tests/conftest.py.
from tests.conftest import ARTIFACTS_ROOT

ARTIFACTS = ARTIFACTS_ROOT / "browser"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True, "locale": "en-GB"}


@pytest.fixture
def app(tmp_path):
    from webapp import create_app

    return create_app({"INSTANCE_PATH": str(tmp_path / "instance"), "TESTING": True,
                       "SECRET_KEY": "browser-tests",
                       "DATABASE_URL": f"sqlite:///{tmp_path / 'instance' / 'browser.sqlite3'}"})


@pytest.fixture
def server(app):
    """The scoresheet on this computer's loopback only (``--host 127.0.0.1``)."""
    from webapp.testing import LiveServer

    srv = LiveServer(app)
    yield srv
    srv.stop()


TABLE_ADDRESS = "127.0.0.2"


@pytest.fixture
def table_server(app, monkeypatch):
    """The scoresheet as ``rummiref serve`` runs it: on every interface, so the phones at the
    table get in. The computer's network address is played by ``127.0.0.2`` (loopback too, so
    the test needs no network): the share panel offers ``http://127.0.0.2:PORT/...``."""
    from webapp import reach
    from webapp.testing import LiveServer

    monkeypatch.setattr(reach, "lan_address", lambda: TABLE_ADDRESS)
    srv = LiveServer(app, host="0.0.0.0")
    srv.phone_url = f"http://{TABLE_ADDRESS}:{srv.port}"
    yield srv
    srv.stop()


class Phone:
    """One phone at the table: a browser context (own storage) with one page, that fails the
    test on any JavaScript error and saves screenshots under artifacts/browser/."""

    def __init__(self, browser, name: str, test_name: str, **options):
        self.name = name
        self.test_name = test_name
        self.context = browser.new_context(**{**PHONE, **options})
        self.context.set_default_timeout(5000)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(f"{name}: {e}"))
        self.page.on("console", self._console)

    def _console(self, msg) -> None:
        # An HTTP error status the test provokes (422, 404), a request it blocked or a stream cut
        # at teardown is not a script error; everything else logged as an error is.
        if msg.type == "error" and not any(s in msg.text for s in ("net::ERR", "EventSource", "Failed to load resource")):
            self.errors.append(f"{self.name} console: {msg.text}")

    def shot(self, label: str, full_page: bool = True) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", f"{self.test_name}-{self.name}-{label}")
        path = ARTIFACTS / f"{safe}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        return path

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def phones(browser, request):
    """A factory: ``phone = phones("owner")``; every phone is closed after the test, and any
    JavaScript error on any of them fails the test."""
    made: list[Phone] = []
    test_name = request.node.name

    def make(name: str, **options) -> Phone:
        p = Phone(browser, name, test_name, **options)
        made.append(p)
        return p

    yield make
    errors = [e for p in made for e in p.errors]
    for p in made:
        p.close()
    assert not errors, "JavaScript errors on the page:\n" + "\n".join(errors)
