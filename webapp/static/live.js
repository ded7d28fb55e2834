/* The live referee's phone pages: the live table (the verdict and the picture arrive by
   themselves), the turn log and the dispute view. The server renders every word in the page's
   language (the panel is fetched again, as HTML, on each change); this script swaps it in,
   sizes the picture's labels, and gives the owner (the phone holding the game's edit token)
   the tile keypad, End turn, whose turn, a new round and the joker declarations. A phone
   without the token sees none of them. No framework, no build step. */
"use strict";

(() => {
  const { api, t } = RR;
  const body = document.body;
  const gameId = body.dataset.game;
  const page = body.dataset.page;
  const base = "/api/games/" + encodeURIComponent(gameId) + "/live";
  const $ = (id) => document.getElementById(id);

  // --- the owner: the game's edit token, from the owner link's fragment or this phone --------
  const hash = new URLSearchParams(window.location.hash.slice(1));
  if (hash.get("token")) {
    RR.setToken(gameId, hash.get("token"));
    history.replaceState(null, "", window.location.pathname + window.location.search);
  }
  const token = RR.getToken(gameId);
  const isOwner = !!token;
  body.classList.toggle("is-owner", isOwner);

  function say(text) { const m = $("lv-message"); if (m) m.textContent = text || ""; }

  function call(method, path, data) {
    return api(method, base + path, { body: data, token });
  }

  // --- the picture: labels about 14 px on screen whatever the picture's size -----------------
  function sizeLabels() {
    const svg = $("lv-board");
    if (!svg || svg.tagName.toLowerCase() !== "svg") return;
    const vb = svg.viewBox.baseVal;
    const box = svg.getBoundingClientRect();
    if (!vb || !vb.width || !box.width || !box.height) return;
    const scale = Math.min(box.width / vb.width, box.height / vb.height);
    svg.style.setProperty("--lv-label", (14 / scale).toFixed(1) + "px");
    svg.style.setProperty("--lv-line", (2.5 / scale).toFixed(2) + "px");
  }

  function wireBoard() {
    sizeLabels();
    const stage = $("lv-stage");
    if (!stage || !isOwner || !stage.dataset.turn) return;
    stage.querySelectorAll(".lv-t").forEach((g) => {
      g.setAttribute("role", "button");
      g.setAttribute("tabindex", "0");
      g.setAttribute("aria-label", t("%(tile)s: correct this tile", { tile: g.dataset.tile }));
    });
  }

  // --- the tile keypad (the scoresheet's keypad, in a sheet) --------------------------------
  const keypad = (() => {
    const dlg = $("lv-keypad");
    if (!dlg) return null;
    const numbers = dlg.querySelector(".numbers");
    let colour = "K";
    let picked = null;
    let target = null;

    function setColour(c) {
      colour = c;
      numbers.className = "numbers c-" + c;
      dlg.querySelectorAll(".colour").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.colour === c)));
      if (picked && picked !== "J") pick(c + picked.slice(1));
    }

    function pick(tile) {
      picked = tile;
      $("lv-kp-to").textContent = tile || "?";
      $("lv-kp-save").disabled = !tile || tile === target.tile;
      dlg.querySelectorAll(".num").forEach((b) => {
        const is = b.dataset.joker ? tile === "J" : tile === colour + b.dataset.number;
        b.setAttribute("aria-pressed", String(!!is));
      });
    }

    dlg.addEventListener("click", (ev) => {
      const b = ev.target.closest("button");
      if (!b) return;
      if (b.dataset.colour) setColour(b.dataset.colour);
      else if (b.dataset.joker) pick("J");
      else if (b.dataset.number) pick(colour + b.dataset.number);
    });

    $("lv-kp-save").addEventListener("click", async () => {
      const err = $("lv-kp-error");
      err.hidden = true;
      $("lv-kp-save").disabled = true;
      try {
        await call("POST", "/turns/" + target.turn + "/correct",
          { side: target.side, index: target.index, tile: picked });
        dlg.close();
        say(t("%(old)s corrected to %(new)s: the turn is judged again.", { old: target.tile, new: picked }));
        if (target.done) target.done();
      } catch (e) {
        err.textContent = e.message;
        err.hidden = false;
        $("lv-kp-save").disabled = false;
      }
    });

    return {
      open(tgt) {
        target = tgt;
        $("lv-kp-from").textContent = tgt.tile;
        $("lv-kp-error").hidden = true;
        const c = tgt.tile[0];
        colour = "KBOR".includes(c) ? c : colour;
        setColour(colour);
        pick(null);
        dlg.showModal();
      },
    };
  })();

  // --- the live table -----------------------------------------------------------------------
  let fetching = null;
  let again = false;

  async function refresh() {
    if (fetching) { again = true; return fetching; }
    fetching = (async () => {
      try {
        const resp = await fetch("/games/" + encodeURIComponent(gameId) + "/live/panel",
          { cache: "no-store", credentials: "same-origin" });
        if (!resp.ok) return;
        const html = await resp.text();
        const doc = new DOMParser().parseFromString("<div id='x'>" + html + "</div>", "text/html");
        const fresh = doc.getElementById("x");
        const panel = $("lv-panel");
        // The same state as on the screen (the stream's greeting on connecting, a poll):
        // leave the page as it is, the picture and an open "why" included.
        const was = $("lv-verdict");
        const now = fresh.querySelector("#lv-verdict");
        if (was && now && was.dataset.version === now.dataset.version
            && was.dataset.endTurn === now.dataset.endTurn) return;
        const wasOpen = !!(panel.querySelector("#lv-why") || {}).open;
        const said = (s) => (s ? s.textContent.trim() : "");
        const before = said($("lv-headline"));
        panel.replaceChildren(...fresh.childNodes);
        // A screen reader hears the new verdict, not the whole panel again.
        if (said($("lv-headline")) !== before) {
          $("lv-announce").textContent = said(panel.querySelector(".lv-who")) + " " + said($("lv-headline"));
        }
        const why = $("lv-why");
        if (why && wasOpen) why.open = true;
        wireBoard();
        endTurnButton();
      } catch (e) { /* the next event or poll tries again */ }
    })();
    await fetching;
    fetching = null;
    if (again) { again = false; refresh(); }
  }

  /* End turn waits for the camera's next reading: the panel says when one is pending. */
  function endTurnButton(pending) {
    const b = $("lv-end-turn");
    if (!b) return;
    const v = $("lv-verdict");
    const waiting = pending !== undefined ? pending : !!(v && v.dataset.endTurn);
    b.disabled = waiting;
    b.textContent = waiting ? t("Reading the table…") : t("End turn");
  }

  function listen(onChange, types, pollMs) {
    let es = null;
    if (window.EventSource) {
      es = new EventSource("/api/games/" + encodeURIComponent(gameId) + "/events");
      types.forEach((type) => es.addEventListener(type, onChange));
    }
    if (pollMs) setInterval(onChange, es ? pollMs : 3000);
  }

  function tileTarget(g) {
    const stage = $("lv-stage");
    return { turn: Number(stage.dataset.turn), side: stage.dataset.side || "after",
             index: Number(g.dataset.index), tile: g.dataset.tile, done: refresh };
  }

  function initTable() {
    wireBoard();
    window.addEventListener("resize", sizeLabels);
    if (window.ResizeObserver) new ResizeObserver(sizeLabels).observe($("lv-panel"));
    listen(refresh, ["live-turn", "live-status", "live-fix", "live-reset", "hello"], 10000);
    if (!isOwner) return;

    const panel = $("lv-panel");
    const openTile = (ev) => {
      const g = ev.target.closest(".lv-t");
      const stage = $("lv-stage");
      if (!g || !stage || !stage.dataset.turn || !keypad) return;
      if (ev.type === "keydown" && ev.key !== "Enter" && ev.key !== " ") return;
      ev.preventDefault();
      keypad.open(tileTarget(g));
    };
    panel.addEventListener("click", openTile);
    panel.addEventListener("keydown", openTile);

    panel.addEventListener("click", async (ev) => {
      const b = ev.target.closest(".lv-option");
      if (!b) return;
      const box = b.closest(".lv-joker");
      const tiles = b.dataset.tiles || null;
      try {
        await call("POST", "/turns/" + box.dataset.turn + "/declare",
          { side: "after", meld: Number(box.dataset.meld), tiles });
        say(tiles ? t("Declared: the jokers stand for %(tiles)s. The turn is judged again.", { tiles })
                  : t("The declaration was taken back. The turn is judged again."));
        refresh();
      } catch (e) { say(e.message); }
    });

    $("lv-end-turn").addEventListener("click", async () => {
      try {
        const out = await call("POST", "/end-turn", {});
        endTurnButton(!!out.end_turn);
        say(t("The camera reads the table as soon as it is still."));
      } catch (e) { say(e.message); }
    });
    $("lv-reset").addEventListener("click", async () => {
      const yes = await RR.confirm({ title: t("Start watching a new round?"),
        message: t("The camera forgets the table it remembers; the turn log starts again."),
        ok: t("New round"), danger: true });
      if (!yes) return;
      try { await call("POST", "/reset", {}); say(t("Watching a new round.")); refresh(); }
      catch (e) { say(e.message); }
    });
    $("lv-next-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        const out = await call("POST", "/next-player", { player: new FormData(ev.target).get("player") });
        say(t("It is %(player)s's turn now.", { player: out.next_player }));
        refresh();
      } catch (e) { say(e.message); }
    });
    // A rack of two rows is shown row by row (back row first), as it stands in front of the
    // player, so a tile to check is easy to find.
    function showRackRows(rows) {
      const list = $("lv-rack-rows");
      list.replaceChildren(...(rows.length > 1 ? rows.map((row, k) => {
        const item = document.createElement("li");
        item.textContent = (k === 0 ? t("Back row:") : t("Front row:")) + " " + row;
        return item;
      }) : []));
      list.hidden = rows.length <= 1;
    }
    // Each tile to check, in rack order, with what it more likely is.
    function showRackDoubts(doubts) {
      $("lv-rack-unsure").textContent = doubts.length
        ? t("Check these, the camera was unsure of them: %(tiles)s",
            { tiles: doubts.map((d) => d.tile).join(" ") }) : "";
      const list = $("lv-rack-doubts");
      list.replaceChildren(...doubts.filter((d) => d.alternatives.length).map((d) => {
        const item = document.createElement("li");
        const others = d.alternatives.reduce((a, b) => t("%(a)s or %(b)s", { a, b }));
        item.textContent = t("Tile %(place)s, read as %(tile)s: perhaps %(others)s",
          { place: d.index + 1, tile: d.tile, others });
        return item;
      }));
      list.hidden = !list.children.length;
    }
    $("lv-rack-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const data = new FormData(ev.target);
      say(t("Reading the rack…"));
      try {
        const resp = await fetch(base + "/rack-photo", { method: "POST", body: data,
          headers: { Authorization: "Bearer " + token, Accept: "application/json" } });
        const out = await resp.json().catch(() => ({}));
        if (!resp.ok) throw new Error(out.error || t("The server answered %(status)s.", { status: resp.status }));
        $("lv-rack-result").hidden = false;
        $("lv-rack-tiles").textContent = out.tiles || t("no tiles");
        $("lv-rack-value").textContent = out.value;
        showRackRows(out.rows || []);
        showRackDoubts(out.doubts || []);
        // Hand the rack to the round form on this phone; it asks before using it.
        try {
          localStorage.setItem("rummiref:rack:" + gameId + ":" + data.get("player"),
            JSON.stringify({ tiles: out.tiles, value: out.value, at: Date.now() }));
        } catch (e) { /* private mode */ }
        say("");
      } catch (e) { say(e.message); }
    });
  }

  // --- the turn log ---------------------------------------------------------------------------
  function initLog() {
    // A new or corrected turn: show the log again (a reconnection replays only what was missed).
    listen(() => window.location.reload(), ["live-turn", "live-fix", "live-reset"], 0);
  }

  // --- the dispute view -----------------------------------------------------------------------
  function initDispute() {
    if (!isOwner || !keypad) return;
    document.querySelectorAll(".lv-tile").forEach((b) => b.addEventListener("click", () => {
      keypad.open({ turn: Number(b.closest(".lv-tiles").dataset.turn), side: b.dataset.side,
                    index: Number(b.dataset.index), tile: b.dataset.tile,
                    done: () => window.location.reload() });
    }));
  }

  if (page === "table") initTable();
  else if (page === "log") initLog();
  else if (page === "dispute") initDispute();
})();
