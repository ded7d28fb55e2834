/* rummiref game sheet: the page's shared state and its live half. The owner token, the game as
   the server last answered it, the sheet refetched whenever the game changes, and the live
   updates (server-sent events). The rest of the page is in files of its own, each working
   through `RRGame`: round entry (game-entry.js), saving rounds and the outbox, edit and undo
   (game-saving.js), the turn timer (game-timer.js), sharing and the end of the game
   (game-share.js), the game's settings (game-settings.js).

   Scores are never computed here: the server scores every round (referee.settle_round) and
   this page shows what it answers. The sheet itself is rendered by the server's autoescaped
   templates; this script swaps in the fresh copy (parsed by DOMParser, whose scripts never
   run) and writes any data of its own with textContent only. */
"use strict";

const RRGame = (() => {
  const { el, api, t, tn } = RR;
  const body = document.body;
  const gameId = body.dataset.gameId;
  const apiBase = "/api/games/" + encodeURIComponent(gameId);
  const sheetUrl = body.dataset.sheetUrl;
  const $ = (id) => document.getElementById(id);

  /* The owner token: from the owner link's fragment, then from this phone's storage. */
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

  /* The other parts of the page hear of the game ("game", after each answer from the server),
     of the timer ("timer", from the live stream) and of the page's start ("started", once the
     game is loaded). */
  const listeners = {};
  const G = {
    body, gameId, apiBase, $, hash, token, isOwner,
    game: null,
    on(name, fn) { (listeners[name] = listeners[name] || []).push(fn); },
    emit(name, ...args) { for (const fn of listeners[name] || []) fn(...args); },
    /* New rounds this phone has entered that the server has not confirmed (game-saving.js). */
    waitingRounds: () => 0,
    loadGame, refreshSheet, want, onGame, listOf, playerNames,
  };

  async function loadGame() {
    try {
      G.game = await api("GET", apiBase);
      want(G.game.version);
      onGame();
    } catch (e) { /* the sheet on screen stays; the next event or "online" retries */ }
  }

  function onGame() {
    const game = G.game;
    if (!game) return;
    const players = game.players.map((p) => p.name);
    if (isOwner) RR.setToken(gameId, token, players);
    showHead();
    const over = !!game.over;
    $("game-over-note").hidden = !over;
    body.classList.toggle("game-over", over);
    G.emit("game", game);
  }

  function playerNames() {
    const game = G.game;
    return game ? game.players.slice().sort((a, b) => a.seat - b.seat).map((p) => p.name) : [];
  }

  /* The title, the players under it, and what the game is played to. */
  function showHead() {
    const game = G.game;
    const names = playerNames();
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

  /* The sheet: refetched whenever the game changes. */
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

  /* Live updates. */
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
      if (data && data.game) { G.game = data.game; want(data.game.version); onGame(); }
      refreshSheet();
    });
    for (const type of ["round-added", "round-edited", "round-undone", "game-edited", "rematch"]) {
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
      if (data && data.timer) G.emit("timer", data.timer);
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

  function start() {
    loadGame().then(() => G.emit("started"));
    connect();
  }
  // The page's other scripts come after this one: start once all of them have registered.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  return G;
})();
