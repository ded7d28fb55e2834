/* The live referee's turn log: a new or corrected turn shows the log again (a reconnection
   replays only what was missed). */
"use strict";

(() => {
  const { page, listen } = RRLive;
  if (page !== "log") return;
  listen(() => window.location.reload(), ["live-turn", "live-fix", "live-reset"], 0);
})();
