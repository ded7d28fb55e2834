"""Shared test helpers. Area-specific fixtures live in each area's own conftest."""

import json
import os
from pathlib import Path

import pytest

pytest_plugins = ["tests.browser"]

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


def pytest_collection_modifyitems(config, items):
    # A test that drives Chromium (through the `browser` fixture) is a browser test, wherever it
    # lives: `pytest -m browser` runs them all, `-m "not browser"` leaves them out.
    # Slow tests (long training, load) run only when asked for: `pytest -m slow`.
    asked = config.option.markexpr or ""
    wants_slow = "slow" in asked and "not slow" not in asked
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
        if "slow" in item.keywords and not wants_slow:
            item.add_marker(pytest.mark.skip(reason="slow: run with `pytest -m slow`"))
