/* The live referee: the tile keypad (the scoresheet's keypad, in a sheet) with which the owner
   corrects a tile the camera read wrongly; the turn is then judged again. null on a page
   without it. */
"use strict";

const RRLiveKeypad = (() => {
  const { t } = RR;
  const { $, call, say } = RRLive;
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
