// The live referee's phone pages: the live table (verdicts arrive by themselves), the turn
// log and the dispute view (correcting a misread tile). No framework, no build step.
(function () {
  "use strict";
  const body = document.body;
  const gameId = body.dataset.game;
  const page = body.dataset.page;
  const TOKEN_KEY = "rummiref:token:" + gameId;
  const $ = (id) => document.getElementById(id);

  function token() {
    const m = /(?:^|[#&])token=([^&]+)/.exec(location.hash || "");
    if (m) {
      try { localStorage.setItem(TOKEN_KEY, decodeURIComponent(m[1])); } catch (e) { /* private mode */ }
      history.replaceState(null, "", location.pathname + location.search);
      return decodeURIComponent(m[1]);
    }
    try { return localStorage.getItem(TOKEN_KEY); } catch (e) { return null; }
  }

  function say(text) { const el = $("lv-message"); if (el) el.textContent = text; }

  async function call(method, path, data, isForm) {
    const headers = { "Accept": "application/json" };
    const t = token();
    if (t) headers.Authorization = "Bearer " + t;
    let bodyData;
    if (data !== undefined) {
      if (isForm) bodyData = data;
      else { headers["Content-Type"] = "application/json"; bodyData = JSON.stringify(data); }
    }
    const r = await fetch(path, { method, headers, body: bodyData });
    let out = null;
    try { out = await r.json(); } catch (e) { out = { error: "the server answered " + r.status }; }
    if (!r.ok) {
      if (r.status === 401 || r.status === 403) {
        throw new Error("Only the phone that keeps this game's scoresheet (or has its edit link) can do this.");
      }
      throw new Error((out && out.error) || ("error " + r.status));
    }
    return out;
  }

  const api = "/api/games/" + gameId + "/live";

  // --- live table --------------------------------------------------------------------------
  function verdictClass(t) { return t.legal === true ? "lv-ok" : (t.legal === false ? "lv-bad" : "lv-unsure"); }

  function render(state) {
    const w = state.watcher || { state: "none", detail: "" };
    const pill = $("lv-watcher");
    pill.className = "lv-pill lv-" + w.state;
    pill.textContent = "Camera: " + w.state + (w.hand ? " (hand over the table)" : "");
    $("lv-watcher-detail").textContent = w.detail || "";
    const v = $("lv-verdict");
    v.textContent = "";
    if (state.last_turn) {
      const t = state.last_turn;
      v.className = "lv-verdict " + verdictClass(t);
      const who = document.createElement("p");
      who.className = "lv-who";
      who.textContent = "Turn " + t.number + ": " + t.player;
      const words = document.createElement("pre");
      words.className = "lv-words";
      words.textContent = t.summary || "";
      v.append(who, words);
      const d = $("lv-dispute");
      d.hidden = false;
      d.href = "/games/" + gameId + "/live/turns/" + t.number;
    } else {
      v.className = "lv-verdict";
      const words = document.createElement("p");
      words.className = "lv-words";
      words.textContent = "Waiting for the first turn.";
      v.append(words);
    }
    $("lv-next").textContent = state.next_player || "?";
    $("lv-restore").hidden = !state.restore_pending;
    const img = $("lv-image");
    if (state.image) {
      img.hidden = false;
      img.src = state.image + "&v=" + state.version;
      const no = $("lv-noimage"); if (no) no.hidden = true;
    }
    const end = $("lv-end-turn");
    end.disabled = !!state.end_turn;
    end.textContent = state.end_turn ? "Reading the table…" : "End turn";
  }

  let refreshing = null;
  function refresh() {
    if (refreshing) return refreshing;
    refreshing = call("GET", api).then(render).catch((e) => say(e.message))
      .finally(() => { refreshing = null; });
    return refreshing;
  }

  function listen(onChange, types, pollMs) {
    // The game's event stream carries live-* events; poll as well in case it is unavailable.
    let es = null;
    if (window.EventSource) {
      es = new EventSource("/api/games/" + gameId + "/events");
      types.forEach((type) => es.addEventListener(type, onChange));
    }
    if (pollMs) setInterval(onChange, es ? pollMs : 2000);
  }

  function initTable() {
    listen(refresh, ["live-turn", "live-status", "live-fix", "live-reset", "hello"], 10000);
    $("lv-end-turn").addEventListener("click", async () => {
      try { await call("POST", api + "/end-turn", {}); say("The camera will read the table as soon as it is still."); refresh(); }
      catch (e) { say(e.message); }
    });
    $("lv-reset").addEventListener("click", async () => {
      if (!confirm("Forget the table and start watching a new round?")) return;
      try { await call("POST", api + "/reset", {}); say("Watching a new round."); refresh(); }
      catch (e) { say(e.message); }
    });
    $("lv-next-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        const out = await call("POST", api + "/next-player", { player: new FormData(ev.target).get("player") });
        say("Next: " + out.next_player); refresh();
      } catch (e) { say(e.message); }
    });
    $("lv-rack-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const form = ev.target;
      const data = new FormData(form);
      say("Reading the rack…");
      try {
        const out = await call("POST", api + "/rack-photo", data, true);
        $("lv-rack-result").hidden = false;
        $("lv-rack-tiles").textContent = out.tiles || "no tiles";
        $("lv-rack-value").textContent = out.value;
        $("lv-rack-unsure").textContent = out.uncertain.length ? "Check these, the reader was unsure: " + out.uncertain.join(" ") : "";
        // Hand the rack to the round form on this phone; it asks before using it.
        try {
          localStorage.setItem("rummiref:rack:" + gameId + ":" + data.get("player"),
            JSON.stringify({ tiles: out.tiles, value: out.value, at: Date.now() }));
        } catch (e) { /* private mode */ }
        say("");
      } catch (e) { say(e.message); }
    });
    refresh();
  }

  // --- turn log ----------------------------------------------------------------------------
  function initLog() {
    // A new or corrected turn: show the log again (a reconnection replays only what was missed).
    listen(() => location.reload(), ["live-turn", "live-fix", "live-reset"], 0);
  }

  // --- dispute view ------------------------------------------------------------------------
  function initDispute() {
    document.querySelectorAll(".lv-tile").forEach((b) => b.addEventListener("click", async () => {
      const right = prompt("The right tile for " + b.textContent.replace("?", "") + " (e.g. R7, K13, J):");
      if (!right) return;
      const turn = b.closest(".lv-tiles").dataset.turn;
      try {
        await call("POST", api + "/turns/" + turn + "/correct",
          { side: b.dataset.side, index: Number(b.dataset.index), tile: right.trim() });
        location.reload();
      } catch (e) { say(e.message); }
    }));
  }

  if (page === "table") initTable();
  else if (page === "log") initLog();
  else if (page === "dispute") initDispute();
})();
