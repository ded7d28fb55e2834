"""Chromium for the browser tests: one Playwright instance for the whole session (the ``browser``
fixture), or a clear reason why the browser tests cannot run."""

import os
import shutil
from pathlib import Path

import pytest

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
