/* rummiref game sheet: entering a round. Who went out, then each loser's rack as points or as
   tiles on the keypad (the server values the tiles as they are typed: /api/rack-value), a rack
   read from a photo on the camera page offered as it was read. Saving is game-saving.js's. */
"use strict";

const RREntry = (() => {
  const { el, api, showError, t, tn, tx } = RR;
  const G = RRGame;
  const { $, gameId } = G;
  const entryBox = $("entry");
  const entryError = $("entry-error");
  const saveBtn = $("entry-save");
  let entry = null;  // {mode, number, winner (undefined: not chosen; null: nobody), racks, key}
  let previewOk = true;

  function openEntry(mode, round) {
    const game = G.game;
    if (!game) return;
    const names = G.playerNames();
    entry = { mode, number: round ? round.number : game.next_round + G.waitingRounds(), winner: undefined, racks: {},
              key: RR.randomKey(), active: null, version: round ? round.version : null };
    for (const p of names) entry.racks[p] = { points: "", tiles: [], value: null, problem: "" };
    if (round) {
      entry.winner = round.went_out ? round.winner : null;
      for (const p of names) {
        const r = round.racks ? round.racks[p] : null;
        if (typeof r === "number") entry.racks[p].points = String(r);
        else if (typeof r === "string" && /^\s*\d+\s*$/.test(r)) entry.racks[p].points = r.trim();
        else if (typeof r === "string" && r.trim()) {
          entry.racks[p].tiles = r.trim().split(/\s+/);
          // The server's value of these tiles under the game's rules, as scored.
          const v = round.rack_values ? round.rack_values[p] : undefined;
          entry.racks[p].value = typeof v === "number" ? v : null;
        }
      }
    }
    $("entry-title").textContent = mode === "edit" ? t("Edit round %(n)s", { n: entry.number })
      : t("Round %(n)s", { n: entry.number });
    saveBtn.textContent = mode === "edit" ? t("Save changes") : t("Save round");
    showError(entryError, "");
    renderWinners();
    renderRacks();
    entryBox.hidden = false;
    $("new-round").hidden = true;
    entryBox.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  function closeEntry() {
    entry = null;
    entryBox.hidden = true;
    $("new-round").hidden = !!(G.game && G.game.over);
    $("rack-cards").replaceChildren();
  }

  function renderWinners() {
    const box = $("winner-choices");
    box.replaceChildren();
    for (const p of G.playerNames()) {
      box.append(el("button", { type: "button", class: "btn winner-choice", "aria-pressed": String(entry.winner === p),
        dataset: { player: p }, onclick: () => chooseWinner(p) }, p));
    }
    box.append(el("button", { type: "button", class: "btn nobody", "aria-pressed": String(entry.winner === null),
      onclick: () => chooseWinner(null) }, t("Nobody went out (pool empty)")));
  }

  function chooseWinner(p) {
    entry.winner = p;
    if (p !== null) entry.racks[p] = { points: "", tiles: [], value: null, problem: "" };
    renderWinners();
    renderRacks();
    const first = $("rack-cards").querySelector(".rack-points");
    if (first) first.focus({ preventScroll: true });
  }

  function neededPlayers() {
    if (entry.winner === undefined) return [];
    return G.playerNames().filter((p) => p !== entry.winner);
  }

  function renderRacks() {
    const cards = $("rack-cards");
    const need = neededPlayers();
    $("step-racks").hidden = need.length === 0;
    $("racks-q").textContent = entry.winner === null
      ? t("Nobody went out: what is left on every rack?")
      : t("What is left on each loser's rack? Points, or tap Tiles.");
    // Cards are filled in place when the same players are asked for: the open keypad is never
    // taken out of the page, so a tap whose press and release straddle a redraw still lands.
    const shown = Array.from(cards.children);
    if (shown.length === need.length && shown.every((c, i) => c.dataset.player === need[i])) {
      shown.forEach((c, i) => fillCard(c, need[i]));
    } else {
      cards.replaceChildren(...need.map((p) => fillCard(el("div", { dataset: { player: p } }), p)));
    }
    updateSave();
  }

  function fillCard(card, p) {
    const st = entry.racks[p];
    const points = el("input", { class: "rack-points", type: "text", inputmode: "numeric", pattern: "[0-9]*",
      maxlength: "4", autocomplete: "off", "aria-label": t("%(name)s rack points", { name: p }), placeholder: t("pts"),
      dataset: { player: p } });
    points.value = st.tiles.length ? (st.value === null ? "" : String(st.value)) : st.points;
    points.disabled = st.tiles.length > 0;
    points.addEventListener("input", () => {
      points.value = points.value.replace(/[^0-9]/g, "");
      st.points = points.value;
      showError(entryError, "");
      updateSave();
    });
    points.addEventListener("keydown", (ev) => {
      if (ev.key !== "Enter") return;
      const all = Array.from($("rack-cards").querySelectorAll(".rack-points:not(:disabled)"));
      const next = all[all.indexOf(points) + 1];
      if (next) next.focus(); else if (!saveBtn.disabled) saveBtn.click();
    });
    const toggle = el("button", { type: "button", class: "btn small rack-tiles-toggle",
      "aria-expanded": String(entry.active === p), dataset: { player: p } }, entry.active === p ? t("Done") : t("Tiles"));
    toggle.addEventListener("click", () => {
      entry.active = entry.active === p ? null : p;
      renderRacks();
    });
    const pad = entry.active === p ? keypad(p) : null;
    for (const child of Array.from(card.children)) if (child !== pad) child.remove();
    card.className = "rack-card" + (pad ? " active" : "");
    const parts = [el("div", { class: "rack-head" }, el("span", { class: "rack-name" }, p), points, toggle)];
    const photo = photoRack(p);
    if (photo && !st.tiles.length && st.points === "") {
      parts.push(el("button", { type: "button", class: "btn small photo-rack", dataset: { player: p },
        onclick: () => {
          st.tiles = photo.tiles.split(/\s+/).filter(Boolean);
          forgetPhotoRack(p);
          tilesChanged(p);
        } }, t("Use the rack from the photo: %(tiles)s", { tiles: photo.tiles })));
    }
    if (st.tiles.length) {
      const chips = el("div", { class: "picked", role: "group", "aria-label": t("%(name)s tiles", { name: p }) });
      st.tiles.forEach((tile, i) => {
        const colour = tile === "J" ? "J" : tile[0];
        const remove = t("Remove %(tile)s", { tile });
        chips.append(el("button", { type: "button", class: "chip c-" + colour, title: remove,
          "aria-label": remove, onclick: () => { st.tiles.splice(i, 1); tilesChanged(p); } }, tile));
      });
      const pv = el("p", { class: "preview", dataset: { player: p } });
      showPreview(pv, st);
      const notation = el("p", { class: "notation", dir: "ltr", dataset: { player: p } });
      st.tiles.forEach((t, i) => notation.append(...(i ? [" "] : []),
        el("span", { class: "t c-" + (t === "J" ? "J" : t[0]) }, t)));
      parts.push(chips, notation, pv);
    }
    if (pad && pad.parentNode === card) pad.before(...parts);
    else card.append(...parts, ...(pad ? [pad] : []));
    return card;
  }

  /* A rack the camera page (webapp.live) read from a photo of this player's rack, if any. */
  function photoRackKey(p) { return "rummiref:rack:" + gameId + ":" + p; }
  function photoRack(p) {
    try {
      const r = JSON.parse(localStorage.getItem(photoRackKey(p)) || "null");
      return r && typeof r.tiles === "string" && r.tiles.trim() ? r : null;
    } catch (e) { return null; }
  }
  function forgetPhotoRack(p) { try { localStorage.removeItem(photoRackKey(p)); } catch (e) { /* ignore */ } }

  function showPreview(pv, st) {
    pv.classList.toggle("error", Boolean(st.problem));
    const n = tn("%(n)s tile", "%(n)s tiles", st.tiles.length);
    if (st.problem) pv.textContent = st.problem;
    else if (st.value !== null) pv.textContent = n + " = " + tn("%(n)s point", "%(n)s points", st.value);
    else pv.textContent = t("%(tiles)s (the total is worked out when you save)", { tiles: n });
  }

  /* Put the server's answer into the player's card without rebuilding the cards: a rebuild
     under a finger that is on its way down to the next key would lose that tap, and would take
     the cursor out of another player's points box. */
  function refreshPreview(p) {
    const st = entry.racks[p];
    const mine = (sel) => Array.from($("rack-cards").querySelectorAll(sel)).find((x) => x.dataset.player === p);
    const pv = mine(".preview");
    if (!pv) { renderRacks(); return; }
    showPreview(pv, st);
    const points = mine(".rack-points");  // shows the tiles' total, greyed out
    if (points && st.tiles.length) points.value = st.value === null ? "" : String(st.value);
  }

  let keypadColour = "K";
  /* The open keypad is built once per round entry and player and then left where it is. */
  let openPad = null;

  function keypad(p) {
    if (openPad && openPad.entry === entry && openPad.player === p) return openPad.node;
    const frag = $("keypad-template").content.cloneNode(true);
    const pad = frag.querySelector(".keypad");
    const numbers = pad.querySelector(".numbers");
    const setColour = (c) => {
      keypadColour = c;
      numbers.className = "numbers c-" + c;
      pad.querySelectorAll(".colour").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.colour === c)));
    };
    setColour(keypadColour);
    pad.addEventListener("click", (ev) => {
      const b = ev.target.closest("button");
      if (!b) return;
      if (b.dataset.colour) { setColour(b.dataset.colour); return; }
      const st = entry.racks[p];
      if (b.dataset.joker) st.tiles.push("J");
      else if (b.dataset.number) st.tiles.push(keypadColour + b.dataset.number);
      else return;
      tilesChanged(p);
    });
    openPad = { entry, player: p, node: pad };
    return pad;
  }

  let previewTimers = {};

  function tilesChanged(p) {
    const st = entry.racks[p];
    st.value = null;
    st.problem = "";
    showError(entryError, "");
    renderRacks();
    clearTimeout(previewTimers[p]);
    if (!st.tiles.length || !previewOk) return;
    const asked = st.tiles.join(" ");
    previewTimers[p] = setTimeout(async () => {
      try {
        const r = await api("POST", "/api/rack-value", { body: { rules: G.game.rules.name, tiles: asked } });
        if (!entry || entry.racks[p] !== st || st.tiles.join(" ") !== asked) return;
        st.value = r.value;
      } catch (e) {
        if (e.status === 404 || e.status === 405) { previewOk = false; return; }
        if (!entry || entry.racks[p] !== st || st.tiles.join(" ") !== asked) return;
        if (e.status === 422 || e.status === 400) st.problem = e.message;
        else return;
      }
      refreshPreview(p);
    }, 120);
  }

  function updateSave() {
    if (!entry) return;
    const need = neededPlayers();
    saveBtn.disabled = entry.winner === undefined ||
      need.some((p) => !entry.racks[p].tiles.length && entry.racks[p].points === "");
  }

  function roundBody() {
    const racks = {};
    for (const p of neededPlayers()) {
      const st = entry.racks[p];
      racks[p] = st.tiles.length ? st.tiles.join(" ") : parseInt(st.points, 10);
    }
    return { winner: entry.winner, racks };
  }

  /* Only the player who went out ends with an empty rack: a loser's 0 is asked about. */
  async function zeroRacksConfirmed() {
    const zero = neededPlayers().filter((p) => {
      const st = entry.racks[p];
      return !st.tiles.length && st.points !== "" && parseInt(st.points, 10) === 0;
    });
    if (!zero.length) return true;
    const who = el("bdi", {}, G.listOf(zero));
    const message = tn("Did %(names)s really have no tiles left?", "Did %(names)s really have no tiles left?",
      zero.length, { names: G.listOf(zero) });
    const out = entry.winner === null ? []
      : [" "].concat(tx("Only %(name)s, who went out, should have none.", { name: el("bdi", {}, entry.winner) }));
    return RR.confirm({
      title: zero.length === 1 ? tx("%(name)s's rack is 0", { name: who })
                               : tx("%(names)s have 0 on their racks", { names: who }),
      message: [message].concat(out),
      ok: t("Yes, save it"), cancel: t("No, let me fix it") });
  }

  G.on("game", (game) => {
    $("next-round-no").textContent = String(game.next_round + G.waitingRounds());
    $("new-round").hidden = !!game.over || !!entry;
    if (game.over && entry && entry.mode === "add") closeEntry();
  });
  $("entry-cancel").addEventListener("click", closeEntry);
  $("new-round").addEventListener("click", () => openEntry("add", null));

  return {
    current: () => entry, open: openEntry, close: closeEntry, roundBody, zeroRacksConfirmed,
    saveBtn, error: entryError,
  };
})();
