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
      throw new ApiError("No connection to the scoresheet server. Check the Wi-Fi; nothing was lost.", 0);
    }
    let data = null;
    try { data = await resp.json(); } catch (e) { data = null; }
    if (!resp.ok) {
      const msg = (data && data.error) || ("The server answered " + resp.status + ".");
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
      button.textContent = "Copied";
      setTimeout(() => { button.textContent = old; }, 1200);
    }
  }

  return { getToken, setToken, myGames, device, setDevice, randomKey, api, ApiError, el, showError, copyText };
})();
