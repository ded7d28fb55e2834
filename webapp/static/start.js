/* rummiref start page: players in seat order, a rule preset, then POST /api/games. */
"use strict";

(() => {
  const { el, t } = RR;
  const form = document.getElementById("new-game");
  const rows = document.getElementById("player-rows");
  const addBtn = document.getElementById("add-player");
  const errorBox = document.getElementById("start-error");
  const deviceInput = document.getElementById("device-name");
  const submitBtn = document.getElementById("start-game");
  const targetBox = document.getElementById("target");
  RR.wireTarget(targetBox, () => { createKey = null; });
  const MAX = 6, MIN = 2;
  let createKey = null;  // one Idempotency-Key per attempt, so a retried tap creates one game

  function inputs() { return Array.from(rows.querySelectorAll("input[name=player]")); }

  function renumber() {
    inputs().forEach((inp, i) => {
      inp.placeholder = t("Player %(n)s", { n: i + 1 });
      inp.setAttribute("aria-label", t("Player %(n)s", { n: i + 1 }));
    });
    addBtn.hidden = inputs().length >= MAX;
  }

  function makeRow() {
    return el("li", { class: "player-row" },
      el("input", { type: "text", name: "player", maxlength: "40", autocomplete: "off",
        autocapitalize: "words", enterkeyhint: "next" }),
      el("button", { type: "button", class: "icon up", "aria-label": t("Move up"), title: t("Move up") }, "\u2191"),
      el("button", { type: "button", class: "icon remove", "aria-label": t("Remove"), title: t("Remove") }, "\u2715"));
  }

  addBtn.addEventListener("click", () => {
    if (inputs().length >= MAX) return;
    const row = makeRow();
    rows.append(row);
    renumber();
    row.querySelector("input").focus();
  });

  rows.addEventListener("click", (ev) => {
    const btn = ev.target.closest("button");
    if (!btn) return;
    const row = btn.closest("li");
    if (btn.classList.contains("remove")) {
      if (inputs().length > MIN) row.remove();
      else row.querySelector("input").value = "";
    } else if (btn.classList.contains("up") && row.previousElementSibling) {
      row.parentNode.insertBefore(row, row.previousElementSibling);
    }
    renumber();
    createKey = null;
  });

  rows.addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter" || ev.target.name !== "player") return;
    ev.preventDefault();
    const all = inputs();
    const i = all.indexOf(ev.target);
    if (i + 1 < all.length) all[i + 1].focus();
    else if (all.length < MAX && ev.target.value.trim()) addBtn.click();
    else submitBtn.focus();
  });
  form.addEventListener("input", () => { createKey = null; RR.showError(errorBox, ""); });

  deviceInput.value = RR.device();
  deviceInput.addEventListener("change", () => RR.setDevice(deviceInput.value));

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    RR.setDevice(deviceInput.value);
    const players = inputs().map((i) => i.value.trim()).filter(Boolean);
    if (players.length < MIN) {
      RR.showError(errorBox, t("Enter at least two players' names."));
      return;
    }
    const target = RR.readTarget(targetBox);
    if (target instanceof Error) {
      RR.showError(errorBox, target.message);
      return;
    }
    const checked = form.querySelector("input[name=rules]:checked");
    const body = { players, rules: checked ? checked.value : undefined };
    if (target) body.target = target;
    if (RR.device()) body.device = RR.device();
    if (!createKey) createKey = RR.randomKey();
    submitBtn.disabled = true;
    submitBtn.textContent = t("Starting…");
    try {
      const data = await RR.api("POST", "/api/games", { body, idempotencyKey: createKey });
      RR.setToken(data.id, data.token, players);
      window.location.assign("/games/" + encodeURIComponent(data.id) + "#new");
    } catch (e) {
      RR.showError(errorBox, e.message);
      submitBtn.disabled = false;
      submitBtn.textContent = t("Start game");
    }
  });

  // Games this phone can edit, newest first.
  const mine = RR.myGames();
  if (mine.length) {
    const list = document.getElementById("my-games-list");
    for (const g of mine.slice(0, 8)) {
      list.append(el("li", {}, el("a", { href: "/games/" + encodeURIComponent(g.id) },
        el("time", { class: "when", datetime: g.at || "" }, RR.when(g.at)),
        (g.players || []).join(", ") || g.id)));
    }
    document.getElementById("my-games").hidden = false;
  }
  renumber();
})();
