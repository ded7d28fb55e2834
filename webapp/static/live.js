/* The live referee's phone pages: the live table (the verdict and the picture arrive by
   themselves), the turn log and the dispute view. The server renders every word in the page's
   language (the panel is fetched again, as HTML, on each change); the scripts swap it in, size
   the picture's labels, and give the owner (the phone holding the game's edit token) the tile
   keypad, End turn, whose turn, a new round, a rack photo and the joker declarations. A phone
   without the token sees none of them. No framework, no build step.

   This file holds what every live page shares: the game, the owner's token, messages, calls
   and the live updates. Each page's own part is in a file of its own: live-keypad.js (the
   tile keypad that corrects a reading), live-table.js, live-rack.js (a photo of a rack, on the
   live table), live-hint.js (the best play for a typed rack, on the live table), live-log.js,
   live-dispute.js. */
"use strict";

const RRLive = (() => {
  const { api } = RR;
  const body = document.body;
  const gameId = body.dataset.game;
  const page = body.dataset.page;
  const base = "/api/games/" + encodeURIComponent(gameId) + "/live";
  const $ = (id) => document.getElementById(id);

  /* The owner: the game's edit token, from the owner link's fragment or this phone. */
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

  function listen(onChange, types, pollMs) {
    let es = null;
    if (window.EventSource) {
      es = new EventSource("/api/games/" + encodeURIComponent(gameId) + "/events");
      types.forEach((type) => es.addEventListener(type, onChange));
    }
    if (pollMs) setInterval(onChange, es ? pollMs : 3000);
  }

  return { gameId, page, base, $, token, isOwner, say, call, listen };
})();
