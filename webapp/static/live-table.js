/* The live referee's table page: the verdict and the picture arrive by themselves (the panel
   is fetched again on each change), the picture's labels are sized for the phone, and the owner
   corrects a tile, declares jokers, ends a turn, says whose turn it is or starts a new round. */
"use strict";

(() => {
  const { t } = RR;
  const { $, gameId, page, isOwner, call, say, listen } = RRLive;
  const keypad = RRLiveKeypad;
  if (page !== "table") return;

  /* The picture: labels about 14 px on screen whatever the picture's size. */
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
  }

  initTable();
})();
