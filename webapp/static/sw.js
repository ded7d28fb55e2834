/* rummiref's service worker: the scoresheet keeps working when the table's Wi-Fi drops.

   Served by webapp.install at /sw.js, which puts VERSION (a hash of this file and the shell's
   files) and SHELL (those files' addresses) above this text.

   - The shell (styles, scripts, icons, the start page) is kept when the worker installs and
     answered from the phone at once, refreshed in the background.
   - Pages and data a phone has seen (a game's page, its sheet, its state from the API, the
     history, the change log) come from the network first; without an answer within a few
     seconds the last copy kept on the phone is shown.
   - Nothing else is touched: writes (rounds go through the page's own queue with idempotency
     keys, see game-saving.js), the live updates stream, the live referee, QR codes and pictures
     always go to the server. */
"use strict";

const SHELL_CACHE = "rummiref-shell-" + VERSION;
const PAGES_CACHE = "rummiref-pages";
const KEEP_PAGES = 80;
const NETWORK_WAIT_MS = 4000;

const GAME = "/games/[A-Za-z0-9_-]+";
const PAGES = [new RegExp("^/$"), new RegExp("^/history$"), new RegExp("^" + GAME + "$"),
               new RegExp("^" + GAME + "/sheet$"), new RegExp("^" + GAME + "/audit$"),
               new RegExp("^/api" + GAME + "$")];
const SHELL_PATHS = [/^\/ui-static\//, /^\/icons\//, /^\/manifest\.webmanifest$/, /^\/favicon\.ico$/,
                     /^\/apple-touch-icon\.png$/];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("rummiref-shell-") && name !== SHELL_CACHE) await caches.delete(name);
    }
    // The page that installed the worker loaded before it: keep a copy of it too.
    await keepPages(await self.clients.matchAll({ type: "window", includeUncontrolled: true }));
    await self.clients.claim();
  })());
});

// A page that was still loading when the worker took over is not taken by claim() (it was not
// ready yet), and nothing would take it until the next visit: it asks, once it is ready
// (common.js), and its copy is kept as for the page that installed the worker.
self.addEventListener("message", (event) => {
  if (event.data !== "claim" || !event.source || event.source.type !== "window") return;
  event.waitUntil(keepPages([event.source]).then(() => self.clients.claim()));
});

// Copies of the open pages a phone may want without a connection: each page, and a game's
// sheet and state, which its script asks for when it opens.
async function keepPages(clients) {
  const cache = await caches.open(PAGES_CACHE);
  for (const client of clients) {
    const url = new URL(client.url);
    url.hash = "";
    if (url.origin !== self.location.origin || !PAGES.some((re) => re.test(url.pathname))) continue;
    const wanted = [url.href];
    if (new RegExp("^" + GAME + "$").test(url.pathname)) {
      wanted.push(url.origin + url.pathname + "/sheet", url.origin + "/api" + url.pathname);
    }
    for (const href of wanted) {
      try {
        const resp = await fetch(href, { credentials: "same-origin" });
        if (resp.ok) await cache.put(href, resp);
      } catch (e) { /* offline already: the next visit keeps it */ }
    }
  }
}

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (SHELL_PATHS.some((re) => re.test(url.pathname))) {
    event.respondWith(shellFirst(event, req));
  } else if (PAGES.some((re) => re.test(url.pathname))) {
    event.respondWith(networkFirst(event, req));
  }
});

async function shellFirst(event, req) {
  const cache = await caches.open(SHELL_CACHE);
  const kept = await cache.match(req, { ignoreSearch: true });
  const fresh = fetch(req).then((resp) => {
    if (resp.ok) cache.put(req, resp.clone());
    return resp;
  });
  if (kept) {
    event.waitUntil(fresh.catch(() => null));
    return kept;
  }
  return fresh;
}

async function networkFirst(event, req) {
  const cache = await caches.open(PAGES_CACHE);
  const fresh = fetch(req).then(async (resp) => {
    if (resp.ok) {
      await cache.put(req, resp.clone());
      await trim(cache);
    } else if (resp.status === 404 || resp.status === 410) {
      await cache.delete(req);  // a deleted game is not shown from the phone's copy later
    }
    return resp;
  });
  event.waitUntil(fresh.catch(() => null));
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(resolve, NETWORK_WAIT_MS); });
  try {
    const first = await Promise.race([fresh, late]);
    if (first) return first;  // the server answered (an error page too: it is the truth)
  } catch (e) {
    /* no connection */
  } finally {
    clearTimeout(timer);
  }
  const kept = (await cache.match(req, { ignoreVary: true }))
    || (await cache.match(req, { ignoreVary: true, ignoreSearch: true }));
  if (kept) return kept;
  if (req.mode === "navigate" && new URL(req.url).pathname === "/") {
    const shell = await caches.open(SHELL_CACHE);
    const start = await shell.match("/");
    if (start) return start;
  }
  return fresh;  // still waiting: the server's answer, or the browser's own "offline"
}

async function trim(cache) {
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - KEEP_PAGES))) await cache.delete(old);
}
