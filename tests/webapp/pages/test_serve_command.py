"""Sharing works out of the box: the README's main command, ``rummiref serve --demo``, run for
real, lets the phones at the table in and says so; a second browser opens the link it shares."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from webapp import reach

REPO = Path(__file__).resolve().parents[3]


def readme_serve_command() -> list[str]:
    """The serve part of the README's first set-up line."""
    lines = [line[6:] for line in (REPO / "README.md").read_text().splitlines()
             if line.startswith("    $ ")]
    serve = lines[0].split("&&")[-1].split()
    assert serve[0].endswith("rummiref") and serve[1] == "serve", lines[0]
    return serve[1:]


class Served:
    def __init__(self, tmp_path: Path, *extra: str):
        args = [sys.executable, "-c", "import sys; from referee.cli import main; sys.exit(main())",
                *readme_serve_command(), "--port", "0", "--instance", str(tmp_path / "inst"), *extra]
        self.proc = subprocess.Popen(args, cwd=REPO, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.lines: list[str] = []
        deadline = time.monotonic() + 60
        while not any("press Ctrl+C" in line for line in self.lines):
            assert time.monotonic() < deadline and self.proc.poll() is None, self.lines
            self.lines.append(self.proc.stdout.readline().rstrip())
        self.text = "\n".join(self.lines)

    def link(self, label: str) -> str:
        return re.search(re.escape(label) + r"\s*(http://\S+)", self.text).group(1)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


@pytest.fixture
def served(tmp_path):
    made = []

    def start(*extra: str) -> Served:
        s = Served(tmp_path / str(len(made)), *extra)
        made.append(s)
        return s

    yield start
    for s in made:
        s.stop()


def _status(url: str) -> int:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status


def test_the_readme_command_lets_the_phones_in_and_a_second_browser_opens_the_share_link(
        served, phones):
    lan = reach.lan_address()
    s = served()
    local = s.link("rummiref scoresheet:")
    assert local.startswith("http://127.0.0.1:")
    if lan is None:  # a computer on no network says so, and offers no link it cannot answer
        assert "on no network" in s.text
        pytest.skip("this computer has no network address to share")
    phones_link = s.link("phones at the table (same Wi-Fi) open:")
    assert phones_link.startswith(f"http://{lan}:")
    assert _status(phones_link) == 200  # the printed link answers at that address
    owner_link = s.link("its scoresheet, with the edit token:")
    assert owner_link.startswith(phones_link)

    # The laptop opens its own copy as 127.0.0.1: the panel shares the network address.
    laptop = phones("laptop")
    laptop.page.goto(local.rstrip("/") + "/games/" + owner_link.split("/games/")[1])
    laptop.page.click("#share summary")
    viewer_link = laptop.page.locator("#viewer-link").get_attribute("href")
    assert viewer_link.startswith(f"http://{lan}:") and _status(viewer_link) == 200
    assert laptop.page.locator("#viewer-qr svg").count() == 1
    laptop.shot("share-panel", full_page=False)

    # A second browser (another phone at the table) opens the shared link.
    guest = phones("guest")
    guest.page.goto(viewer_link)
    guest.page.wait_for_selector("#live[data-state=live]")
    assert guest.page.locator(".ranking li").count() >= 2
    assert guest.page.locator("#role").inner_text() == "View only"
    guest.shot("opened-share-link", full_page=False)


def test_serve_on_this_computer_only_says_so_and_the_panel_explains(served, phones):
    s = served("--host", "127.0.0.1")
    assert "only this computer can connect" in s.text and "--host 0.0.0.0" in s.text
    assert "phones at the table (same Wi-Fi) open" not in s.text
    owner_link = s.link("its scoresheet, with the edit token:")
    assert owner_link.startswith("http://127.0.0.1:")
    laptop = phones("laptop")
    laptop.page.goto(owner_link)
    laptop.page.click("#share summary")
    note = laptop.page.locator("#share-note")
    assert "Only this computer can open this link" in note.inner_text()
    assert laptop.page.locator("#viewer-qr").count() == 0
    assert _status(laptop.page.locator("#viewer-link").get_attribute("href")) == 200
    laptop.shot("share-panel-this-computer-only", full_page=False)
