/* rummiref game sheet: live updates (server-sent events), round entry with the tile keypad,
   edit / undo, the shared turn timer and the share panel.

   Scores are never computed here: the server scores every round (referee.settle_round) and
   this page shows what it answers. The sheet itself is rendered by the server's autoescaped
   templates; this script swaps in the fresh copy (parsed by DOMParser, whose scripts never
   run) and writes any data of its own with textContent only. */
"use strict";

(() => {
  const { el, api, showError, t, tn, tx } = RR;
  const body = document.body;
  const gameId = body.dataset.gameId;
  const apiBase = "/api/games/" + encodeURIComponent(gameId);
  const sheetUrl = body.dataset.sheetUrl;
  const $ = (id) => document.getElementById(id);

  // --- the owner token: from the owner link's fragment, then from this phone's storage ------------
  const hash = new URLSearchParams(window.location.hash.slice(1));
  if (hash.get("token")) {
    RR.setToken(gameId, hash.get("token"));
    // Drop the token from the address bar and history at once.
    history.replaceState(null, "", window.location.pathname + window.location.search);
  }
  const token = RR.getToken(gameId);
  const isOwner = !!token;
  body.classList.toggle("is-owner", isOwner);
  $("role").textContent = isOwner ? t("You can edit") : t("View only");
  $("role").classList.toggle("owner", isOwner);

  let game = null;

  async function loadGame() {
    try {
      game = await api("GET", apiBase);
      want(game.version);
      onGame();
    } catch (e) { /* the sheet on screen stays; the next event or "online" retries */ }
  }

  function onGame() {
    if (!game) return;
    $("next-round-no").textContent = String(game.next_round + waitingRounds());
    if (game.timer) setTimer(game.timer);
    const players = game.players.map((p) => p.name);
    if (isOwner) RR.setToken(gameId, token, players);
    showHead();
    const over = !!game.over;
    $("new-round").hidden = over || !!entry;
    $("game-over-note").hidden = !over;
    body.classList.toggle("game-over", over);
    if (over && entry && entry.mode === "add") closeEntry();
  }

  /* The title, the players under it, and what the game is played to. */
  function showHead() {
    const names = game.players.slice().sort((a, b) => a.seat - b.seat).map((p) => p.name);
    const h1 = $("game-title");
    const parts = (list) => list.flatMap((n, i) => [...(i ? [" \u00b7 "] : []), el("bdi", {}, n)]);
    if (game.title) h1.replaceChildren(el("bdi", {}, game.title));
    else h1.replaceChildren(...parts(names));
    $("players-sub").hidden = !game.title;
    const target = game.target;
    const line = $("target-line");
    line.hidden = !target;
    if (target) line.textContent = targetText(target);
    document.title = (game.title || names.join(", ")) + " \u00b7 rummiref";
  }

  function targetText(target) {
    const num = { num: target.value };
    return target.kind === "points"
      ? tn("Played to %(num)s point", "Played to %(num)s points", target.value, num)
      : tn("Played to %(num)s round", "Played to %(num)s rounds", target.value, num);
  }

  /* "Ann", "Ann and Ben", "Ann, Ben and Cy" in the page's language. */
  function listOf(names) {
    try { return new Intl.ListFormat(RR.lang, { type: "conjunction" }).format(names); }
    catch (e) { return names.join(", "); }
  }

  // --- the sheet: refetched whenever the game changes -------------------------------------------
  // `wanted` is the newest game version an event announced; the sheet carries the version it
  // shows. A refresh that fails (Wi-Fi gone for a moment) tries again until they match.
  let sheetBusy = false, sheetAgain = false, wanted = 0, retryTimer = null, sheetLoaded = false;

  function shownVersion() {
    const s = $("sheet");
    return s ? parseInt(s.dataset.version || "0", 10) : 0;
  }

  function want(version) {
    if (typeof version === "number" && version > wanted) wanted = version;
  }

  async function refreshSheet() {
    if (sheetBusy) { sheetAgain = true; return; }
    sheetBusy = true;
    clearTimeout(retryTimer);
    let failed = false;
    try {
      do {
        sheetAgain = false;
        const resp = await fetch(sheetUrl, { cache: "no-store" });
        if (!resp.ok) { failed = resp.status >= 500; break; }
        const doc = new DOMParser().parseFromString(await resp.text(), "text/html");
        const fresh = doc.getElementById("sheet");
        const old = $("sheet");
        if (!fresh || !old) break;
        const open = Array.from(old.querySelectorAll("details.round[open]"), (d) => d.id);
        const adopted = document.adoptNode(fresh);
        for (const id of open) {
          const d = adopted.querySelector("#" + CSS.escape(id));
          if (d) d.open = true;
        }
        old.replaceWith(adopted);
        sheetLoaded = true;
        const winner = doc.getElementById("winner-slot");
        if (winner && $("winner-slot")) $("winner-slot").replaceWith(document.adoptNode(winner));
        if (shownVersion() < wanted) sheetAgain = true;  // an older copy raced a newer event
      } while (sheetAgain);
    } catch (e) {
      failed = true;  // no connection: keep what is shown and try again shortly
    } finally {
      sheetBusy = false;
    }
    if (failed) retryTimer = setTimeout(refreshSheet, 1000);
  }

  // --- live updates -------------------------------------------------------------------------------
  const live = $("live");
  let source = null;

  function setLive(state, text) { live.dataset.state = state; live.textContent = text; }

  function connect() {
    if (source) source.close();
    source = new EventSource(apiBase + "/events");
    source.onopen = () => setLive("live", t("live"));
    source.onerror = () => {
      if (deleted) return;
      setLive("down", t("reconnecting…"));
      // Opened without a connection (the page from this phone's copy): show the last sheet it kept.
      if (!sheetLoaded) refreshSheet();
      checkGone();
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
    };
    source.addEventListener("hello", (ev) => {
      setLive("live", t("live"));
      const data = parse(ev);
      if (data && data.game) { game = data.game; want(data.game.version); onGame(); }
      refreshSheet();
    });
    for (const type of ["round-added", "round-edited", "round-undone"]) {
      source.addEventListener(type, (ev) => {
        const data = parse(ev);
        if (data) want(data.version);
        refreshSheet();
        loadGame();
      });
    }
    for (const type of ["game-edited", "rematch"]) {
      source.addEventListener(type, (ev) => {
        const data = parse(ev);
        if (data) want(data.version);
        refreshSheet();
        loadGame();
      });
    }
    source.addEventListener("game-deleted", () => gameDeleted());
    source.addEventListener("timer", (ev) => {
      const data = parse(ev);
      if (data && data.timer) setTimer(data.timer);
    });
  }

  function parse(ev) { try { return JSON.parse(ev.data); } catch (e) { return null; } }

  /* The game is gone (its owner deleted it, here or on another phone): say so, stop listening,
     forget its token. */
  let deleted = false;
  function gameDeleted() {
    if (deleted) return;
    deleted = true;
    if (source) source.close();
    RR.forgetGame(gameId);
    setLive("down", t("deleted"));
    body.classList.remove("is-owner");
    body.classList.add("is-deleted");
    $("deleted-note").hidden = false;
    $("deleted-note").scrollIntoView({ block: "start" });
  }

  async function checkGone() {
    try {
      await api("GET", apiBase);
    } catch (e) {
      if (e.status === 404) gameDeleted();
    }
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") { refreshSheet(); loadGame(); }
  });
  window.addEventListener("online", () => { refreshSheet(); loadGame(); });

  // --- round entry ----------------------------------------------------------------------------------
  const entryBox = $("entry");
  const entryError = $("entry-error");
  const saveBtn = $("entry-save");
  let entry = null;  // {mode, number, winner (undefined: not chosen; null: nobody), racks, key}
  let previewOk = true;

  function playerNames() {
    return game ? game.players.slice().sort((a, b) => a.seat - b.seat).map((p) => p.name) : [];
  }

  function openEntry(mode, round) {
    if (!game) return;
    const names = playerNames();
    entry = { mode, number: round ? round.number : game.next_round + waitingRounds(), winner: undefined, racks: {},
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
    $("new-round").hidden = !!(game && game.over);
    $("rack-cards").replaceChildren();
  }

  function renderWinners() {
    const box = $("winner-choices");
    box.replaceChildren();
    for (const p of playerNames()) {
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
    return playerNames().filter((p) => p !== entry.winner);
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
        const r = await api("POST", "/api/rack-value", { body: { rules: game.rules.name, tiles: asked } });
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

  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  /* Send a write; retry a lost answer with the same Idempotency-Key so it counts once. */
  async function send(req, onProgress) {
    const delays = [300, 700, 1500, 3000];
    for (let attempt = 0; ; attempt++) {
      try {
        return await api(req.method, req.path, { body: req.body, token, idempotencyKey: req.key,
                                                 version: req.version });
      } catch (e) {
        const transient = e.status === 0 || e.status >= 500;
        if (!transient || attempt >= delays.length) throw e;
        if (onProgress) onProgress(attempt + 1);
        await sleep(delays[attempt]);
      }
    }
  }

  // --- rounds waiting for the connection (webapp/static/outbox.js) ---------------------------------
  const outbox = RROutbox.open(gameId, (req) => api(req.method, req.path,
    { body: req.body, token, idempotencyKey: req.key, version: req.version }));
  let syncTimer = null;
  let saving = false;  // the Save button is sending a round itself: the outbox waits for it

  /* New rounds this phone has entered that the server has not confirmed yet. */
  function waitingRounds() { return outbox.list().filter((r) => r.method === "POST").length; }

  function showOutbox(refused) {
    const n = isOwner ? outbox.size() : 0;
    $("pending").hidden = n === 0;
    $("pending-text").textContent = tn(
      "%(n)s round is waiting for the connection: it is sent by itself when the Wi-Fi is back, and counts once.",
      "%(n)s rounds are waiting for the connection: they are sent by themselves when the Wi-Fi is back, and count once.", n);
    if (refused && refused.length) {
      showError($("outbox-error"), refused.map((x) => t("A round entered without a connection was not saved: %(why)s",
        { why: x.error.message })).join(" "));
    }
    if (game) $("next-round-no").textContent = String(game.next_round + waitingRounds());
  }

  /* Send what waits; again every few seconds while something is left (and at once when the
     browser says the connection is back). */
  async function syncOutbox() {
    clearTimeout(syncTimer);
    if (saving) return;
    if (!isOwner || !outbox.size()) { showOutbox(); return; }
    const out = await outbox.flush();
    showOutbox(out.refused);
    if (out.sent || out.refused.length) await Promise.all([refreshSheet(), loadGame()]);
    if (out.left) syncTimer = setTimeout(syncOutbox, 5000);
  }

  /* Only the player who went out ends with an empty rack: a loser's 0 is asked about. */
  async function zeroRacksConfirmed() {
    const zero = neededPlayers().filter((p) => {
      const st = entry.racks[p];
      return !st.tiles.length && st.points !== "" && parseInt(st.points, 10) === 0;
    });
    if (!zero.length) return true;
    const who = el("bdi", {}, listOf(zero));
    const message = tn("Did %(names)s really have no tiles left?", "Did %(names)s really have no tiles left?",
      zero.length, { names: listOf(zero) });
    const out = entry.winner === null ? []
      : [" "].concat(tx("Only %(name)s, who went out, should have none.", { name: el("bdi", {}, entry.winner) }));
    return RR.confirm({
      title: zero.length === 1 ? tx("%(name)s's rack is 0", { name: who })
                               : tx("%(names)s have 0 on their racks", { names: who }),
      message: [message].concat(out),
      ok: t("Yes, save it"), cancel: t("No, let me fix it") });
  }

  saveBtn.addEventListener("click", async () => {
    if (!entry || saveBtn.disabled) return;
    saveBtn.disabled = true;
    const sure = await zeroRacksConfirmed();
    saveBtn.disabled = false;
    if (!entry) return;
    if (!sure) {
      const zeroBox = Array.from($("rack-cards").querySelectorAll(".rack-points:not(:disabled)"))
        .find((b) => b.value !== "" && parseInt(b.value, 10) === 0);
      if (zeroBox) { zeroBox.focus(); zeroBox.select(); }
      return;
    }
    const req = entry.mode === "edit"
      ? { method: "PUT", path: apiBase + "/rounds/" + entry.number, body: roundBody(), key: null,
          version: entry.version }
      : { method: "POST", path: apiBase + "/rounds", body: roundBody(), key: entry.key };
    showError($("outbox-error"), "");
    // Behind rounds that already wait, or with no connection at all: it waits with them, in order.
    const queued = outbox.size() > 0 || navigator.onLine === false;
    const item = outbox.add(req);
    if (queued) {
      closeEntry();
      showOutbox();
      syncOutbox();
      return;
    }
    saveBtn.disabled = true;
    const label = saveBtn.textContent;
    saveBtn.textContent = t("Saving…");
    saving = true;
    try {
      await send(req, (n) => { saveBtn.textContent = t("Saving… (try %(n)s)", { n: n + 1 }); });
      saving = false;
      outbox.remove(item.id);
      closeEntry();
      await Promise.all([refreshSheet(), loadGame()]);
    } catch (e) {
      saving = false;
      if (e.status === 0 || e.status >= 500) {
        // No answer: the round waits on this phone and is sent when the connection is back.
        closeEntry();
        showOutbox();
        syncTimer = setTimeout(syncOutbox, 5000);
        return;
      }
      outbox.remove(item.id);  // refused: nothing changed, fix and save again
      showError(entryError, e.message);
      saveBtn.disabled = false;
      // Changed on another phone meanwhile: show what the round is now (the form stays open
      // with this phone's entry; Cancel and Edit again to start from the new round).
      if (e.status === 412) { refreshSheet(); loadGame(); saveBtn.disabled = true; }
    } finally {
      if (entry) saveBtn.textContent = label;
    }
  });

  $("entry-cancel").addEventListener("click", closeEntry);
  $("new-round").addEventListener("click", () => openEntry("add", null));

  $("pending-retry").addEventListener("click", syncOutbox);
  $("pending-drop").addEventListener("click", async () => {
    const n = outbox.size();
    const sure = await RR.confirm({
      title: tn("Discard the round that was not sent?", "Discard the %(n)s rounds that were not sent?", n),
      message: t("They are only on this phone; the other phones never saw them."),
      ok: t("Discard"), cancel: t("Keep them"), danger: true });
    if (!sure) return;
    outbox.clear();
    showOutbox();
  });
  window.addEventListener("online", syncOutbox);

  // Edit and undo buttons live in the sheet, which is replaced on every update.
  document.addEventListener("click", async (ev) => {
    const edit = ev.target.closest(".edit-round");
    const undo = ev.target.closest(".undo-round");
    if (!isOwner || (!edit && !undo)) return;
    if (!game) await loadGame();
    const n = parseInt((edit || undo).dataset.round, 10);
    if (edit) {
      const round = game.rounds.find((r) => r.number === n);
      if (round) openEntry("edit", round);
      return;
    }
    if (!window.confirm(t("Undo round %(n)s? Its scores are removed (the change log keeps them).", { n }))) return;
    undo.disabled = true;
    try {
      // Not retried: a repeated undo after a lost answer could remove the round before it.
      await api("DELETE", apiBase + "/rounds/" + n, { token, version: undo.dataset.version });
    } catch (e) {
      undo.disabled = false;
      alert(e.status === 0 ? t("No answer from the server: check the sheet before trying again.") : e.message);
    }
    await Promise.all([refreshSheet(), loadGame()]);
  });

  // --- the turn timer ----------------------------------------------------------------------------
  const timerBox = $("timer");
  let timer = null, timerAt = 0, buzzed = "";

  function setTimer(t) {
    showError($("timer-error"), "");
    timer = t;
    timerAt = Date.now();
    drawTimer();
  }

  function fmt(sec) {
    const s = Math.max(0, Math.ceil(sec));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  /* Vibrate (where the phone can), once per turn, and sound the alarm (webapp/static/alarm.js)
     when the moment is now (`sound`), not when a page opens on a turn whose time ran out earlier. */
  function buzz(kind, pattern, sound) {
    const key = kind + "|" + timer.player + "|" + timer.turn + "|" + timer.started_at;
    if (buzzed.includes(key)) return;
    buzzed = (buzzed + "\n" + key).slice(-400);
    if (navigator.vibrate) { try { navigator.vibrate(pattern); } catch (e) { /* not allowed */ } }
    if (sound) RRAlarm[kind]();
  }

  function drawTimer() {
    if (!timer) return;
    const running = timer.state === "running";
    const since = running ? (Date.now() - timerAt) / 1000 : 0;
    $("timer-player").textContent = timer.player || "";
    timerBox.dataset.state = timer.state;
    let warn = false, expired = false, left = null;
    if (timer.limit) {
      left = (timer.remaining === null || timer.remaining === undefined ? timer.limit : timer.remaining) - since;
      expired = timer.state !== "idle" && left <= 0;
      warn = running && !expired && timer.warning !== null && left <= timer.warning;
      $("timer-clock").textContent = fmt(left);
      $("timer-hint").textContent = timer.state === "idle"
        ? (isOwner ? t("Tap to start the turn") : t("waiting for the first turn"))
        : timer.state === "paused" ? t("paused") : (expired ? t("time is up") : t("left of %(limit)s s", { limit: timer.limit }));
    } else {
      $("timer-clock").textContent = fmt((timer.elapsed || 0) + since);
      $("timer-hint").textContent = timer.state === "paused" ? t("no turn limit in these rules · paused")
        : timer.state === "idle" ? t("no turn limit in these rules · not started") : t("no turn limit in these rules");
    }
    timerBox.classList.toggle("warn", warn);
    timerBox.classList.toggle("expired", expired);
    const pen = $("timer-penalty");
    if (expired) {
      const penalty = timer.penalty || t("as the rules say");
      pen.replaceChildren(...tx("Time is up for %(name)s. Penalty: %(penalty)s",
        { name: el("bdi", {}, timer.player), penalty }));
      pen.hidden = false;
      buzz("expired", [400, 150, 400, 150, 400], running && left > -3);
    } else {
      pen.hidden = true;
      if (warn) buzz("warn", [200, 100, 200], left > timer.warning - 3);
    }
  }

  async function timerAction(action) {
    // Not retried: "next" sent twice would skip a player. A lost answer shows as an error and
    // the live stream brings the timer every phone agrees on.
    try {
      setTimer(await api("POST", apiBase + "/timer", { body: { action }, token }));
    } catch (e) {
      showError($("timer-error"), e.status === 0 ? t("No connection: the timer did not change.") : e.message);
    }
  }

  $("timer-face").addEventListener("click", () => {
    if (!isOwner || !timer) return;
    timerAction(timer.state === "running" ? "next" : "start");
  });
  $("timer-start").addEventListener("click", () => timerAction("start"));
  $("timer-pause").addEventListener("click", () => timerAction("pause"));
  $("timer-next").addEventListener("click", () => timerAction("next"));
  $("timer-reset").addEventListener("click", () => timerAction("reset"));
  setInterval(drawTimer, 200);

  // --- sharing ------------------------------------------------------------------------------------
  const shareBase = body.dataset.shareBase;
  const ownerLink = shareBase + "/games/" + encodeURIComponent(gameId) + "#token=" + encodeURIComponent(token || "");
  if (isOwner) $("owner-link").value = ownerLink;
  document.querySelectorAll("button.copy").forEach((b) => b.addEventListener("click", () => {
    const target = $(b.dataset.copy);
    RR.copyText(target.value !== undefined ? target.value : target.textContent, b);
  }));
  if ($("owner-qr-show")) $("owner-qr-show").addEventListener("click", async () => {
    try {
      const resp = await fetch(body.dataset.qrUrl, { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ text: ownerLink }), cache: "no-store" });
      if (!resp.ok) throw new Error("no QR code");
      const img = $("owner-qr");
      img.src = URL.createObjectURL(await resp.blob());
      img.hidden = false;
      $("owner-qr-show").hidden = true;
    } catch (e) { alert(t("Could not draw the QR code; copy the link instead.")); }
  });
  const dev = $("device-name");
  dev.value = RR.device();
  dev.addEventListener("change", () => RR.setDevice(dev.value));
  if (hash.has("new")) {
    $("share").open = true;
  }

  // --- the end of the game: share the result, rematch ----------------------------------------------
  const viewerUrl = () => ($("viewer-link") ? $("viewer-link").href : window.location.href.split("#")[0]);

  function shareStatus(text) {
    const box = document.querySelector("#winner .share-status");
    if (box) box.textContent = text;
  }

  async function shareText(card) {
    const text = card.dataset.shareText;
    const title = card.dataset.shareTitle;
    if (navigator.share) {
      try {
        await navigator.share({ title, text, url: viewerUrl() });
        return;
      } catch (e) {
        if (e && e.name === "AbortError") return;  // the person closed the share sheet
      }
    }
    await RR.copyText(text + "\n" + viewerUrl());
    shareStatus(t("Copied: paste it into a message."));
  }

  async function sharePicture(btn) {
    let blob;
    try {
      const resp = await fetch(btn.dataset.url, { cache: "no-store" });
      if (!resp.ok) throw new Error(String(resp.status));
      blob = await resp.blob();
    } catch (e) {
      shareStatus(t("Could not make the picture: no connection to the server."));
      return;
    }
    const name = "rummiref-" + gameId + ".png";
    const file = new File([blob], name, { type: "image/png" });
    if (navigator.canShare && navigator.canShare({ files: [file] })) {
      try {
        await navigator.share({ files: [file], title: document.title });
        return;
      } catch (e) {
        if (e && e.name === "AbortError") return;
      }
    }
    // No share sheet for pictures here: save it instead.
    const a = el("a", { href: URL.createObjectURL(blob), download: name });
    document.body.append(a);
    a.click();
    a.remove();
    shareStatus(t("The picture was saved as %(file)s.", { file: name }));
  }

  async function rematch(btn) {
    btn.disabled = true;
    try {
      const out = await api("POST", apiBase + "/rematch", { token });
      RR.setToken(out.id, token, out.game.players.map((p) => p.name));
      window.location.assign("/games/" + encodeURIComponent(out.id));
    } catch (e) {
      btn.disabled = false;
      shareStatus(e.status === 0 ? t("No connection: the rematch was not started.") : e.message);
    }
  }

  document.addEventListener("click", (ev) => {
    const card = ev.target.closest("#winner");
    if (!card) return;
    if (ev.target.closest(".share-result")) shareText(card);
    else if (ev.target.closest(".share-picture")) sharePicture(ev.target.closest(".share-picture"));
    else if (ev.target.closest(".rematch") && isOwner) rematch(ev.target.closest(".rematch"));
  });

  // --- game settings: name, target, delete -----------------------------------------------------------
  const settingsTarget = $("settings-target");
  RR.wireTarget(settingsTarget, () => { $("settings-saved").textContent = ""; });
  $("settings-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const err = $("settings-error");
    showError(err, "");
    $("settings-saved").textContent = "";
    const target = RR.readTarget(settingsTarget);
    if (target instanceof Error) { showError(err, target.message); return; }
    const save = $("settings-save");
    save.disabled = true;
    try {
      game = await api("PATCH", apiBase, { token, body: { title: $("settings-title").value, target } });
      want(game.version);
      onGame();
      refreshSheet();
      $("settings-title").value = game.title || "";
      $("settings-saved").textContent = t("Saved.");
    } catch (e) {
      showError(err, e.status === 0 ? t("No connection: nothing was changed.") : e.message);
    } finally {
      save.disabled = false;
    }
  });

  $("delete-game").addEventListener("click", async () => {
    const names = game ? listOf(game.players.map((p) => p.name)) : "";
    const n = game ? game.rounds.length : 0;
    const sure = await RR.confirm({
      title: t("Delete this game?"),
      message: tx("The game of %(names)s with %(rounds)s, and its change log, are removed for every phone. This cannot be undone.",
                  { names: el("bdi", {}, names), rounds: tn("%(n)s round", "%(n)s rounds", n) }),
      ok: t("Delete the game"), cancel: t("Keep it"), danger: true });
    if (!sure) return;
    try {
      await api("DELETE", apiBase, { token });
    } catch (e) {
      if (e.status !== 404) {
        showError($("settings-error"), e.status === 0 ? t("No connection: the game was not deleted.") : e.message);
        return;
      }
    }
    RR.forgetGame(gameId);
    window.location.assign("/history?deleted=1");
  });

  // --- start ----------------------------------------------------------------------------------------
  loadGame().then(syncOutbox);
  connect();
})();
