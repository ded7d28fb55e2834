"""Every page passes an axe-core scan with no serious or critical violation: at 390x844 and in
landscape (844x390), in light and in dark mode (colour contrast is one of axe's rules, so dark
mode is held to WCAG AA too).

axe-core is the npm package (``npm ci`` at the repository root puts it in node_modules, as the
README's test command does); Playwright injects it into each page. Without it the scan fails in
CI (``CI`` set) and is skipped elsewhere."""

from __future__ import annotations

import json
import os
import urllib.request

import pytest

from tests.conftest import REPO
from tests.webapp.pages.browser_helpers import expect

AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
PORTRAIT = {"viewport": {"width": 390, "height": 844}}
LANDSCAPE = {"viewport": {"width": 844, "height": 390}}

# The page's Content-Security-Policy allows only its own script files; the scanner is injected
# as an inline script, so the scanning phone bypasses the policy (the pages' own scripts still
# come from their files).
RUN_AXE = """async () => {
  const out = await axe.run(document, {resultTypes: ["violations"]});
  return out.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + " :: " + n.failureSummary)}));
}"""


@pytest.fixture(scope="module")
def axe_script():
    if not AXE.exists():
        why = f"{AXE.relative_to(REPO)} is missing: run `npm ci` at the repository root"
        if os.environ.get("CI"):
            pytest.fail(why, pytrace=False)
        pytest.skip(why)
    return str(AXE)


def _post(url: str, body: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def _games(base: str) -> dict[str, dict]:
    """A game in play with two rounds (one of tiles) and a game over (its winner screen)."""
    playing = _post(base + "/api/games", {"players": ["Ann", "Ben", "Cy"], "rules": "sabra"})
    api = f"{base}/api/games/{playing['id']}"
    _post(api + "/rounds", {"winner": "Ann", "racks": {"Ben": 12, "Cy": "R7 B7 J"}}, playing["token"])
    _post(api + "/rounds", {"winner": "Cy", "racks": {"Ann": 3, "Ben": 0}}, playing["token"])
    over = _post(base + "/api/games", {"players": ["Dan", "Eve"], "target": {"kind": "rounds", "value": 1}})
    _post(f"{base}/api/games/{over['id']}/rounds", {"winner": "Eve", "racks": {"Dan": 9}}, over["token"])
    return {"playing": playing, "over": over}


def _violations(phone, label: str, axe: str) -> list[str]:
    page = phone.page
    page.add_script_tag(path=axe)
    found = page.evaluate(RUN_AXE)
    phone.shot(label, full_page=False)
    return [f"{label}: {v['id']} ({v['impact']}) {v['help']}\n    " + "\n    ".join(v["nodes"])
            for v in found if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("shape", ["portrait", "landscape"])
def test_every_page_has_no_serious_accessibility_violation(server, phones, axe_script, shape, scheme):
    games = _games(server.url)
    playing, over = games["playing"], games["over"]
    options = {**(PORTRAIT if shape == "portrait" else LANDSCAPE), "color_scheme": scheme,
               "bypass_csp": True}
    owner = phones("owner", **options)
    viewer = phones("viewer", **options)
    found: list[str] = []

    def visit(phone, path: str, label: str, ready: str | None = None, status: int = 200):
        response = phone.page.goto(server.url + path)
        assert response.status == status, (path, response.status)
        if ready:
            phone.page.wait_for_selector(ready)
        found.extend(_violations(phone, label, axe_script))

    visit(viewer, "/", "start", "#start-game")
    visit(owner, f"/games/{playing['id']}#token={playing['token']}", "game-owner", "#live[data-state=live]")
    # The round entry with the tile keypad open (the owner's busiest screen).
    owner.page.click("#new-round")
    owner.page.locator("#winner-choices .winner-choice").filter(has_text="Ann").click()
    owner.page.click(".rack-card[data-player='Ben'] .rack-tiles-toggle")
    expect(owner.page.locator(".keypad")).to_be_visible()
    found.extend(_violations(owner, "game-owner-keypad", axe_script))
    visit(viewer, f"/games/{playing['id']}", "game-viewer", "#live[data-state=live]")
    visit(viewer, f"/games/{over['id']}", "result", "#winner")
    visit(viewer, "/history", "history")
    visit(viewer, f"/games/{playing['id']}/audit", "changes")
    visit(viewer, "/games/nosuchgame00", "error-404", status=404)
    visit(viewer, f"/games/{playing['id']}/live", "live")
    assert not found, "axe-core found serious or critical violations:\n" + "\n".join(found)
