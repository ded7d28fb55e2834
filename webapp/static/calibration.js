/* The calibration page: post the grid photo, say what was learned. Strings come from the
   page (data-* attributes, translated on the server). */
"use strict";

(() => {
  const root = document.getElementById("calibration");
  if (!root) return;
  const form = document.getElementById("calibration-form");
  const status = document.getElementById("calibration-status");
  const gameId = root.dataset.game;
  const fill = (text, params) => text.replace(/%\((\w+)\)s/g, (m, k) => (k in params ? String(params[k]) : m));

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const file = document.getElementById("calibration-photo").files[0];
    if (!file) return;
    const headers = { Accept: "application/json" };
    if (gameId) {
      const token = RR.getToken(gameId);
      if (!token) { status.textContent = root.dataset.owner; return; }
      headers.Authorization = "Bearer " + token;
    }
    const body = new FormData();
    body.append("photo", file);
    status.textContent = root.dataset.working;
    form.querySelector("button").disabled = true;
    try {
      const resp = await fetch(root.dataset.post, { method: "POST", headers, body, credentials: "same-origin" });
      let data = null;
      try { data = await resp.json(); } catch (e) { data = null; }
      if (!resp.ok) {
        status.textContent = (data && data.error) || String(resp.status);
        return;
      }
      let text = fill(root.dataset.learned, { found: data.found, after: data.right_after, before: data.right_before });
      if (data.missing && data.missing.length) text += " " + fill(root.dataset.missing, { tiles: data.missing.join(" ") });
      status.textContent = text;
    } catch (e) {
      status.textContent = String(e);
    } finally {
      form.querySelector("button").disabled = false;
    }
  });
})();
