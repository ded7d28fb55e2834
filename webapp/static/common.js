/* rummiref: helpers shared by the pages. Data from the server is only ever put into the page
   with textContent / attributes, never parsed as HTML here. */
"use strict";

const RR = (() => {
  const TOKEN_PREFIX = "rummiref:token:";
  const GAMES_KEY = "rummiref:games";
  const DEVICE_KEY = "rummiref:device";

  function store() {
    try { return window.localStorage; } catch (e) { return null; }
  }

  function getToken(gameId) {
    const s = store();
    return s ? s.getItem(TOKEN_PREFIX + gameId) : null;
  }

  function setToken(gameId, token, players) {
    const s = store();
    if (!s) return;
    s.setItem(TOKEN_PREFIX + gameId, token);
    let games = [];
    try { games = JSON.parse(s.getItem(GAMES_KEY) || "[]"); } catch (e) { games = []; }
    games = games.filter((g) => g && g.id !== gameId);
    const known = players || (games.find((g) => g.id === gameId) || {}).players || [];
    games.unshift({ id: gameId, players: known, at: new Date().toISOString() });
    s.setItem(GAMES_KEY, JSON.stringify(games.slice(0, 30)));
  }

  function myGames() {
    const s = store();
    if (!s) return [];
    try {
      return JSON.parse(s.getItem(GAMES_KEY) || "[]").filter((g) => g && getToken(g.id));
    } catch (e) { return []; }
  }

  function device() {
    const s = store();
    return (s && s.getItem(DEVICE_KEY)) || "";
  }

  function setDevice(name) {
    const s = store();
    if (s) s.setItem(DEVICE_KEY, (name || "").trim().slice(0, 60));
  }

  /* A key for Idempotency-Key. crypto.randomUUID needs a secure context, and the table's
     server is plain http on the LAN, so build it from getRandomValues (available everywhere). */
  function randomKey() {
    const b = new Uint8Array(16);
    window.crypto.getRandomValues(b);
    return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  }

  class ApiError extends Error {
    constructor(message, status, data) { super(message); this.status = status; this.data = data || {}; }
  }

  /* Call the JSON API. Errors come back as ApiError with the server's sentence; a network
     failure (no answer at all) as ApiError with status 0. `version`: the version of the round
     being changed as this phone last saw it (If-Match), so a change made meanwhile on another
     phone is not overwritten (the server answers 412). */
  async function api(method, path, { body, token, idempotencyKey, version } = {}) {
    const headers = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token) headers.Authorization = "Bearer " + token;
    if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
    if (version !== undefined && version !== null) headers["If-Match"] = '"' + version + '"';
    const dev = device();
    if (dev && method !== "GET") headers["X-Rummiref-Device"] = dev;
    let resp;
    try {
      resp = await fetch(path, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body),
        cache: "no-store", credentials: "same-origin",
      });
    } catch (e) {
      throw new ApiError(t("No connection to the scoresheet server. Check the Wi-Fi; nothing was lost."), 0);
    }
    let data = null;
    try { data = await resp.json(); } catch (e) { data = null; }
    if (!resp.ok) {
      const msg = (data && data.error) || t("The server answered %(status)s.", { status: resp.status });
      throw new ApiError(msg, resp.status, data);
    }
    return data;
  }

  /* Create an element: el("button", {class: "btn", type: "button"}, "text or node", ...). */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "dataset") Object.assign(node.dataset, v);
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children) {
      if (c === null || c === undefined) continue;
      node.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    }
    return node;
  }

  function showError(node, message) {
    if (!node) return;
    node.textContent = message || "";
    node.hidden = !message;
  }

  async function copyText(text, button) {
    try {
      await navigator.clipboard.writeText(text);
    } catch (e) {
      const ta = el("textarea", { style: "position:fixed;opacity:0" }, text);
      document.body.append(ta); ta.select();
      try { document.execCommand("copy"); } catch (e2) { /* nothing else to try */ }
      ta.remove();
    }
    if (button) {
      const old = button.textContent;
      button.textContent = t("Copied");
      setTimeout(() => { button.textContent = old; }, 1200);
    }
  }

  /* The page's language: its translations come in a JSON block (webapp.i18n.js_catalog).
     t("Round %(n)s", {n: 3}); tn("%(n)s tile", "%(n)s tiles", count) picks the plural form the
     language needs. A string without a translation stays as written. */
  const catalog = (() => {
    const node = document.getElementById("rr-i18n");
    try { return JSON.parse(node ? node.textContent : "{}") || {}; } catch (e) { return {}; }
  })();
  const messages = catalog.messages || {};
  const lang = catalog.lang || document.documentElement.lang || "en";
  /* Numbers and dates as this phone writes them: its own variant of the page's language
     (en-GB: 24-hour clock) where it has one. */
  const locale = (navigator.languages || []).find((l) => l.split("-")[0] === lang) || lang;

  function fill(text, params) {
    return String(text).replace(/%\((\w+)\)s/g, (m, k) => (params && k in params ? String(params[k]) : m));
  }

  function t(msgid, params) {
    const m = messages[msgid];
    return fill(typeof m === "string" && m ? m : msgid, params);
  }

  function tn(singular, plural, n, params) {
    let text = n === 1 ? singular : plural;
    const forms = messages[singular];
    if (forms && typeof forms === "object") {
      let tag = "other";
      try { tag = new Intl.PluralRules(lang).select(n); } catch (e) { /* an old browser */ }
      text = forms[tag] || forms.other || text;
    }
    return fill(text, Object.assign({ n }, params));
  }

  /* A translated sentence as nodes, its %(name)s filled with nodes or text: tx("Time is up for
     %(name)s.", {name: el("bdi", {}, player)}). A name in its own <bdi> is kept apart from the
     text around it: a right-to-left name never carries a number or a full stop to its other
     side. */
  function tx(msgid, params) {
    const m = messages[msgid];
    const text = typeof m === "string" && m ? m : msgid;
    const out = [];
    let last = 0;
    text.replace(/%\((\w+)\)s/g, (match, key, at) => {
      out.push(text.slice(last, at));
      const v = params && key in params ? params[key] : match;
      out.push(v instanceof Node ? v : String(v));
      last = at + match.length;
      return match;
    });
    out.push(text.slice(last));
    return out.filter((x) => x !== "");
  }

  /* A moment in the phone's own time zone and language. */
  function when(iso) {
    const d = new Date(iso);
    if (!iso || isNaN(d)) return "";
    try {
      return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(d);
    } catch (e) { return d.toLocaleString(); }
  }

  /* Server-rendered <time datetime="..."> elements carry UTC; show them in local time. */
  function localTimes(root) {
    (root || document).querySelectorAll("time[datetime]").forEach((node) => {
      const text = when(node.getAttribute("datetime"));
      if (text) { node.textContent = text; node.title = node.getAttribute("datetime"); }
    });
  }
  localTimes(document);

  function forgetGame(gameId) {
    const s = store();
    if (!s) return;
    s.removeItem(TOKEN_PREFIX + gameId);
    let games = [];
    try { games = JSON.parse(s.getItem(GAMES_KEY) || "[]"); } catch (e) { games = []; }
    s.setItem(GAMES_KEY, JSON.stringify(games.filter((g) => g && g.id !== gameId)));
  }

  /* The end of a game chosen in a target picker (templates/_target.html): {kind, value}, null
     for none, or an Error whose message says what to fix. */
  function readTarget(fieldset) {
    const chosen = fieldset.querySelector("input[type=radio]:checked");
    const kind = chosen ? chosen.value : "";
    if (!kind) return null;
    const box = fieldset.querySelector(".target-value[data-kind='" + kind + "']");
    const value = Number(box.value);
    const max = Number(box.max);
    if (!Number.isInteger(value) || value < 1 || value > max) {
      return new Error(kind === "points" ? t("Play to 1 to %(max)s points: type a whole number.", { max })
                                         : t("Play 1 to %(max)s rounds: type a whole number.", { max }));
    }
    return { kind, value };
  }

  /* Typing a number picks its option. */
  function wireTarget(fieldset, onChange) {
    fieldset.addEventListener("focusin", (ev) => {
      if (!ev.target.classList.contains("target-value")) return;
      const radio = ev.target.closest("label").querySelector("input[type=radio]");
      radio.checked = true;
      if (onChange) onChange();
    });
    fieldset.addEventListener("input", () => { if (onChange) onChange(); });
  }

  /* Ask before something that cannot be taken back, in the page (a <dialog>), not in a
     browser pop-up; `title` and `message` are text or lists of text and nodes (tx). Resolves
     true when the person chose `ok`. */
  function confirmBox({ title, message, ok, cancel, danger }) {
    return new Promise((resolve) => {
      const yes = el("button", { type: "button", class: "btn " + (danger ? "danger" : "primary"),
        value: "ok" }, ok || t("OK"));
      const no = el("button", { type: "button", class: "btn ghost", value: "cancel" }, cancel || t("Cancel"));
      const dlg = el("dialog", { class: "confirm", "aria-labelledby": "confirm-title" },
        el("h2", { id: "confirm-title" }, ...[].concat(title || "")),
        el("p", { class: "confirm-text" }, ...[].concat(message || "")),
        el("div", { class: "confirm-actions" }, no, yes));
      let answer = false;
      yes.addEventListener("click", () => { answer = true; dlg.close(); });
      no.addEventListener("click", () => dlg.close());
      dlg.addEventListener("close", () => { dlg.remove(); resolve(answer); });
      document.body.append(dlg);
      dlg.showModal();
      no.focus();
    });
  }

  /* The service worker (webapp/static/sw.js) keeps the pages for when the Wi-Fi drops. Browsers
     offer it only in a secure context (HTTPS, or this computer itself); elsewhere the pages
     work as before, and rounds entered without a connection still wait on this phone. */
  if ("serviceWorker" in navigator && window.isSecureContext) {
    window.addEventListener("load", () => {
      navigator.serviceWorker.register("/sw.js").catch(() => { /* private mode, or refused */ });
      // A worker that became active while this page was still loading did not take it: ask.
      navigator.serviceWorker.ready.then((reg) => {
        if (!navigator.serviceWorker.controller && reg.active) reg.active.postMessage("claim");
      });
    });
  }

  return { getToken, setToken, forgetGame, myGames, device, setDevice, randomKey, api, ApiError, el,
           showError, copyText, readTarget, wireTarget, confirm: confirmBox, t, tn, tx, when,
           localTimes, lang };
})();
