/* rummiref game sheet: the shared turn timer. Every phone shows the same clock (the server
   keeps it; the live stream brings each change); the owner's phone starts, pauses and passes
   turns. A warning and the end of the time vibrate and sound once per turn. */
"use strict";

(() => {
  const { el, api, showError, t, tx } = RR;
  const G = RRGame;
  const { $, apiBase, token, isOwner } = G;
  const timerBox = $("timer");
  let timer = null, timerAt = 0, buzzed = "";

  function setTimer(t) {
    showError($("timer-error"), "");
    timer = t;
    timerAt = Date.now();
    drawTimer();
  }

  function fmt(sec) {
    const s = Math.max(0, Math.ceil(sec));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  /* Vibrate (where the phone can), once per turn, and sound the alarm (webapp/static/alarm.js)
     when the moment is now (`sound`), not when a page opens on a turn whose time ran out earlier. */
  function buzz(kind, pattern, sound) {
    const key = kind + "|" + timer.player + "|" + timer.turn + "|" + timer.started_at;
    if (buzzed.includes(key)) return;
    buzzed = (buzzed + "\n" + key).slice(-400);
    if (navigator.vibrate) { try { navigator.vibrate(pattern); } catch (e) { /* not allowed */ } }
    if (sound) RRAlarm[kind]();
  }

  function drawTimer() {
    if (!timer) return;
    const running = timer.state === "running";
    const since = running ? (Date.now() - timerAt) / 1000 : 0;
    $("timer-player").textContent = timer.player || "";
    timerBox.dataset.state = timer.state;
    let warn = false, expired = false, left = null;
    if (timer.limit) {
      left = (timer.remaining === null || timer.remaining === undefined ? timer.limit : timer.remaining) - since;
      expired = timer.state !== "idle" && left <= 0;
      warn = running && !expired && timer.warning !== null && left <= timer.warning;
      $("timer-clock").textContent = fmt(left);
      $("timer-hint").textContent = timer.state === "idle"
        ? (isOwner ? t("Tap to start the turn") : t("waiting for the first turn"))
        : timer.state === "paused" ? t("paused") : (expired ? t("time is up") : t("left of %(limit)s s", { limit: timer.limit }));
    } else {
      $("timer-clock").textContent = fmt((timer.elapsed || 0) + since);
      $("timer-hint").textContent = timer.state === "paused" ? t("no turn limit in these rules · paused")
        : timer.state === "idle" ? t("no turn limit in these rules · not started") : t("no turn limit in these rules");
    }
    timerBox.classList.toggle("warn", warn);
    timerBox.classList.toggle("expired", expired);
    const pen = $("timer-penalty");
    if (expired) {
      const penalty = timer.penalty || t("as the rules say");
      pen.replaceChildren(...tx("Time is up for %(name)s. Penalty: %(penalty)s",
        { name: el("bdi", {}, timer.player), penalty }));
      pen.hidden = false;
      buzz("expired", [400, 150, 400, 150, 400], running && left > -3);
    } else {
      pen.hidden = true;
      if (warn) buzz("warn", [200, 100, 200], left > timer.warning - 3);
    }
  }

  async function timerAction(action) {
    // Not retried: "next" sent twice would skip a player. A lost answer shows as an error and
    // the live stream brings the timer every phone agrees on.
    try {
      setTimer(await api("POST", apiBase + "/timer", { body: { action }, token }));
    } catch (e) {
      showError($("timer-error"), e.status === 0 ? t("No connection: the timer did not change.") : e.message);
    }
  }

  $("timer-face").addEventListener("click", () => {
    if (!isOwner || !timer) return;
    timerAction(timer.state === "running" ? "next" : "start");
  });
  $("timer-start").addEventListener("click", () => timerAction("start"));
  $("timer-pause").addEventListener("click", () => timerAction("pause"));
  $("timer-next").addEventListener("click", () => timerAction("next"));
  $("timer-reset").addEventListener("click", () => timerAction("reset"));
  setInterval(drawTimer, 200);

  G.on("timer", setTimer);
  G.on("game", (game) => { if (game.timer) setTimer(game.timer); });
})();
