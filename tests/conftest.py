"""Shared test helpers. Area-specific fixtures live in each area's own conftest."""

import json
import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("RUMMIREF_SHARED", REPO.parent / "shared"))
ARTIFACTS_ROOT = REPO / "artifacts"


def shared_path(*parts: str) -> Path:
    """A path under ../shared; skips the test (failing in CI) when the shared folder is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is missing: CI needs ../shared beside the checkout")
        pytest.skip(f"{path} is missing (the shared data lives beside the checkout)")
    return path


def load_cases(name: str) -> list[dict]:
    path = SHARED / "referee-cases" / name
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def pytest_collection_modifyitems(items):
    # A test that drives Chromium (through the `browser` fixture) is a browser test, wherever it
    # lives: `pytest -m browser` runs them all, `-m "not browser"` leaves them out.
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


# --- Chromium for the browser tests: one Playwright instance for the whole session ---------

CHROMIUM = os.environ.get("RUMMIREF_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
INSTALL_HINT = ("Chromium for the browser tests is missing: install it with `apt-get install -y "
                "chromium` (Debian's package; the tests launch /usr/bin/chromium, or "
                "$RUMMIREF_CHROMIUM) and the test extra (`pip install -e '.[test]'`, which brings "
                "the `playwright` package). Set RUMMIREF_SKIP_BROWSER=1 to skip these tests on purpose.")


def _missing_browser() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the Python package `playwright` is not installed. " + INSTALL_HINT
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"{CHROMIUM} does not exist. " + INSTALL_HINT
    return None


@pytest.fixture(scope="session")
def browser():
    problem = _missing_browser()
    if problem:
        if os.environ.get("RUMMIREF_SKIP_BROWSER") == "1" and os.environ.get("CI", "").lower() != "true":
            pytest.skip(problem)
        pytest.fail(problem, pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
