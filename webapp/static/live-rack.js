/* The live referee's table page, for the owner: a photo of a player's rack is read (row by
   row, back row first, the tiles the camera doubts listed with what they more likely are),
   valued, and handed to the round form on this phone, which asks before using it, or to the
   hint below it (the best play for that rack on the table as it is now). */
"use strict";

(() => {
  const { t } = RR;
  const { $, gameId, page, isOwner, base, token, say } = RRLive;
  const form = $("lv-rack-form");
  if (page !== "table" || !isOwner || !form) return;

  // A rack of two rows is shown row by row (back row first), as it stands in front of the
  // player, so a tile to check is easy to find.
  function showRackRows(rows) {
    const list = $("lv-rack-rows");
    list.replaceChildren(...(rows.length > 1 ? rows.map((row, k) => {
      const item = document.createElement("li");
      item.textContent = (k === 0 ? t("Back row:") : t("Front row:")) + " " + row;
      return item;
    }) : []));
    list.hidden = rows.length <= 1;
  }
  // Each tile to check, in rack order, with what it more likely is.
  function showRackDoubts(doubts) {
    $("lv-rack-unsure").textContent = doubts.length
      ? t("Check these, the camera was unsure of them: %(tiles)s",
          { tiles: doubts.map((d) => d.tile).join(" ") }) : "";
    const list = $("lv-rack-doubts");
    list.replaceChildren(...doubts.filter((d) => d.alternatives.length).map((d) => {
      const item = document.createElement("li");
      const others = d.alternatives.reduce((a, b) => t("%(a)s or %(b)s", { a, b }));
      item.textContent = t("Tile %(place)s, read as %(tile)s: perhaps %(others)s",
        { place: d.index + 1, tile: d.tile, others });
      return item;
    }));
    list.hidden = !list.children.length;
  }
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const data = new FormData(ev.target);
    say(t("Reading the rack…"));
    try {
      const resp = await fetch(base + "/rack-photo", { method: "POST", body: data,
        headers: { Authorization: "Bearer " + token, Accept: "application/json" } });
      const out = await resp.json().catch(() => ({}));
      if (!resp.ok) throw new Error(out.error || t("The server answered %(status)s.", { status: resp.status }));
      $("lv-rack-result").hidden = false;
      $("lv-rack-tiles").textContent = out.tiles || t("no tiles");
      $("lv-rack-hint").dataset.tiles = out.tiles || "";
      $("lv-rack-value").textContent = out.value;
      showRackRows(out.rows || []);
      showRackDoubts(out.doubts || []);
      // Hand the rack to the round form on this phone; it asks before using it.
      try {
        localStorage.setItem("rummiref:rack:" + gameId + ":" + data.get("player"),
          JSON.stringify({ tiles: out.tiles, value: out.value, at: Date.now() }));
      } catch (e) { /* private mode */ }
      say("");
    } catch (e) { say(e.message); }
  });
  // The rack just read, handed to the hint's form (a tile misread is corrected there).
  $("lv-rack-hint").addEventListener("click", () => {
    const hint = $("lv-hint-form");
    hint.elements.rack.value = $("lv-rack-hint").dataset.tiles;
    hint.elements.player.value = new FormData(form).get("player");
    hint.closest("details").open = true;
    hint.requestSubmit();
    hint.scrollIntoView({ block: "nearest" });
  });
})();
