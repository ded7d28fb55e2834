/* rummiref game sheet: saving rounds. A round is sent with an Idempotency-Key (an edit with
   the round's version) and a lost answer is sent again with the same key, so it counts once;
   with no connection it waits in this phone's outbox (webapp/static/outbox.js) and is sent
   when the connection is back. Also the sheet's edit and undo buttons. */
"use strict";

(() => {
  const { api, showError, t, tn } = RR;
  const G = RRGame;
  const form = RREntry;
  const { $, gameId, apiBase, token, isOwner } = G;
  const saveBtn = form.saveBtn;

  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  /* Send a write; retry a lost answer with the same Idempotency-Key so it counts once. */
  async function send(req, onProgress) {
    const delays = [300, 700, 1500, 3000];
    for (let attempt = 0; ; attempt++) {
      try {
        return await api(req.method, req.path, { body: req.body, token, idempotencyKey: req.key,
                                                 version: req.version });
      } catch (e) {
        const transient = e.status === 0 || e.status >= 500;
        if (!transient || attempt >= delays.length) throw e;
        if (onProgress) onProgress(attempt + 1);
        await sleep(delays[attempt]);
      }
    }
  }

  const outbox = RROutbox.open(gameId, (req) => api(req.method, req.path,
    { body: req.body, token, idempotencyKey: req.key, version: req.version }));
  let syncTimer = null;
  let saving = false;  // the Save button is sending a round itself: the outbox waits for it

  /* New rounds this phone has entered that the server has not confirmed yet. */
  function waitingRounds() { return outbox.list().filter((r) => r.method === "POST").length; }

  function showOutbox(refused) {
    const n = isOwner ? outbox.size() : 0;
    $("pending").hidden = n === 0;
    $("pending-text").textContent = tn(
      "%(n)s round is waiting for the connection: it is sent by itself when the Wi-Fi is back, and counts once.",
      "%(n)s rounds are waiting for the connection: they are sent by themselves when the Wi-Fi is back, and count once.", n);
    if (refused && refused.length) {
      showError($("outbox-error"), refused.map((x) => t("A round entered without a connection was not saved: %(why)s",
        { why: x.error.message })).join(" "));
    }
    if (G.game) $("next-round-no").textContent = String(G.game.next_round + waitingRounds());
  }

  /* Send what waits; again every few seconds while something is left (and at once when the
     browser says the connection is back). */
  async function syncOutbox() {
    clearTimeout(syncTimer);
    if (saving) return;
    if (!isOwner || !outbox.size()) { showOutbox(); return; }
    const out = await outbox.flush();
    showOutbox(out.refused);
    if (out.sent || out.refused.length) await Promise.all([G.refreshSheet(), G.loadGame()]);
    if (out.left) syncTimer = setTimeout(syncOutbox, 5000);
  }

  saveBtn.addEventListener("click", async () => {
    if (!form.current() || saveBtn.disabled) return;
    saveBtn.disabled = true;
    const sure = await form.zeroRacksConfirmed();
    saveBtn.disabled = false;
    if (!form.current()) return;
    if (!sure) {
      const zeroBox = Array.from($("rack-cards").querySelectorAll(".rack-points:not(:disabled)"))
        .find((b) => b.value !== "" && parseInt(b.value, 10) === 0);
      if (zeroBox) { zeroBox.focus(); zeroBox.select(); }
      return;
    }
    const entry = form.current();
    const req = entry.mode === "edit"
      ? { method: "PUT", path: apiBase + "/rounds/" + entry.number, body: form.roundBody(), key: null,
          version: entry.version }
      : { method: "POST", path: apiBase + "/rounds", body: form.roundBody(), key: entry.key };
    showError($("outbox-error"), "");
    // Behind rounds that already wait, or with no connection at all: it waits with them, in order.
    const queued = outbox.size() > 0 || navigator.onLine === false;
    const item = outbox.add(req);
    if (queued) {
      form.close();
      showOutbox();
      syncOutbox();
      return;
    }
    saveBtn.disabled = true;
    const label = saveBtn.textContent;
    saveBtn.textContent = t("Saving…");
    saving = true;
    try {
      await send(req, (n) => { saveBtn.textContent = t("Saving… (try %(n)s)", { n: n + 1 }); });
      saving = false;
      outbox.remove(item.id);
      form.close();
      await Promise.all([G.refreshSheet(), G.loadGame()]);
    } catch (e) {
      saving = false;
      if (e.status === 0 || e.status >= 500) {
        // No answer: the round waits on this phone and is sent when the connection is back.
        form.close();
        showOutbox();
        syncTimer = setTimeout(syncOutbox, 5000);
        return;
      }
      outbox.remove(item.id);  // refused: nothing changed, fix and save again
      showError(form.error, e.message);
      saveBtn.disabled = false;
      // Changed on another phone meanwhile: show what the round is now (the form stays open
      // with this phone's entry; Cancel and Edit again to start from the new round).
      if (e.status === 412) { G.refreshSheet(); G.loadGame(); saveBtn.disabled = true; }
    } finally {
      if (form.current()) saveBtn.textContent = label;
    }
  });

  $("pending-retry").addEventListener("click", syncOutbox);
  $("pending-drop").addEventListener("click", async () => {
    const n = outbox.size();
    const sure = await RR.confirm({
      title: tn("Discard the round that was not sent?", "Discard the %(n)s rounds that were not sent?", n),
      message: t("They are only on this phone; the other phones never saw them."),
      ok: t("Discard"), cancel: t("Keep them"), danger: true });
    if (!sure) return;
    outbox.clear();
    showOutbox();
  });
  window.addEventListener("online", syncOutbox);

  // Edit and undo buttons live in the sheet, which is replaced on every update.
  document.addEventListener("click", async (ev) => {
    const edit = ev.target.closest(".edit-round");
    const undo = ev.target.closest(".undo-round");
    if (!isOwner || (!edit && !undo)) return;
    if (!G.game) await G.loadGame();
    const n = parseInt((edit || undo).dataset.round, 10);
    if (edit) {
      const round = G.game.rounds.find((r) => r.number === n);
      if (round) form.open("edit", round);
      return;
    }
    if (!window.confirm(t("Undo round %(n)s? Its scores are removed (the change log keeps them).", { n }))) return;
    undo.disabled = true;
    try {
      // Not retried: a repeated undo after a lost answer could remove the round before it.
      await api("DELETE", apiBase + "/rounds/" + n, { token, version: undo.dataset.version });
    } catch (e) {
      undo.disabled = false;
      alert(e.status === 0 ? t("No answer from the server: check the sheet before trying again.") : e.message);
    }
    await Promise.all([G.refreshSheet(), G.loadGame()]);
  });

  G.waitingRounds = waitingRounds;
  G.on("started", syncOutbox);
})();
