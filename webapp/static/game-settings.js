/* rummiref game sheet: the game's settings (its name and what it is played to), and deleting
   the game for every phone. */
"use strict";

(() => {
  const { el, api, showError, t, tn, tx } = RR;
  const G = RRGame;
  const { $, gameId, apiBase, token } = G;

  const settingsTarget = $("settings-target");
  RR.wireTarget(settingsTarget, () => { $("settings-saved").textContent = ""; });
  $("settings-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const err = $("settings-error");
    showError(err, "");
    $("settings-saved").textContent = "";
    const target = RR.readTarget(settingsTarget);
    if (target instanceof Error) { showError(err, target.message); return; }
    const save = $("settings-save");
    save.disabled = true;
    try {
      G.game = await api("PATCH", apiBase, { token, body: { title: $("settings-title").value, target } });
      G.want(G.game.version);
      G.onGame();
      G.refreshSheet();
      $("settings-title").value = G.game.title || "";
      $("settings-saved").textContent = t("Saved.");
    } catch (e) {
      showError(err, e.status === 0 ? t("No connection: nothing was changed.") : e.message);
    } finally {
      save.disabled = false;
    }
  });

  $("delete-game").addEventListener("click", async () => {
    const game = G.game;
    const names = game ? G.listOf(game.players.map((p) => p.name)) : "";
    const n = game ? game.rounds.length : 0;
    const sure = await RR.confirm({
      title: t("Delete this game?"),
      message: tx("The game of %(names)s with %(rounds)s, and its change log, are removed for every phone. This cannot be undone.",
                  { names: el("bdi", {}, names), rounds: tn("%(n)s round", "%(n)s rounds", n) }),
      ok: t("Delete the game"), cancel: t("Keep it"), danger: true });
    if (!sure) return;
    try {
      await api("DELETE", apiBase, { token });
    } catch (e) {
      if (e.status !== 404) {
        showError($("settings-error"), e.status === 0 ? t("No connection: the game was not deleted.") : e.message);
        return;
      }
    }
    RR.forgetGame(gameId);
    window.location.assign("/history?deleted=1");
  });
})();
