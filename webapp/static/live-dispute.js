/* The live referee's dispute view: the owner taps a tile of the turn's before or after reading
   to correct it on the keypad; the page shows the turn judged again. */
"use strict";

(() => {
  const { page, isOwner } = RRLive;
  const keypad = RRLiveKeypad;
  if (page !== "dispute" || !isOwner || !keypad) return;
  document.querySelectorAll(".lv-tile").forEach((b) => b.addEventListener("click", () => {
    keypad.open({ turn: Number(b.closest(".lv-tiles").dataset.turn), side: b.dataset.side,
                  index: Number(b.dataset.index), tile: b.dataset.tile,
                  done: () => window.location.reload() });
  }));
})();
