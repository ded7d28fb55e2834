/* rummiref: the turn timer's alarm, played with the Web Audio API (iPhones cannot vibrate).

   Browsers start sound only after the person has touched the page, so the audio context is made
   (or resumed) on the first tap, key or click anywhere, and kept for the alarms that follow; a
   phone nobody has touched yet tries anyway and stays silent if the browser says no. */
"use strict";

const RRAlarm = (() => {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  let ctx = null;

  function context() {
    if (!Ctx) return null;
    if (!ctx) {
      try { ctx = new Ctx(); } catch (e) { return null; }
    }
    if (ctx.state === "suspended") ctx.resume().catch(() => { /* not allowed yet */ });
    return ctx;
  }

  function unlock() {
    const c = context();
    if (!c) return;
    // iOS Safari unlocks its audio only when something plays inside the tap: a silent blip.
    const gain = c.createGain();
    gain.gain.value = 0;
    gain.connect(c.destination);
    const osc = c.createOscillator();
    osc.connect(gain);
    osc.start();
    osc.stop(c.currentTime + 0.01);
    for (const type of ["pointerdown", "keydown", "touchend"]) {
      window.removeEventListener(type, unlock, true);
    }
  }
  for (const type of ["pointerdown", "keydown", "touchend"]) {
    window.addEventListener(type, unlock, true);
  }

  /* Beeps of `seconds` each at `hz`, `gap` seconds apart, with soft edges (no clicks). */
  function beeps(count, hz, seconds, gap) {
    const c = context();
    if (!c) return false;
    const t0 = c.currentTime + 0.02;
    for (let i = 0; i < count; i++) {
      const at = t0 + i * (seconds + gap);
      const gain = c.createGain();
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.6, at + 0.02);
      gain.gain.setValueAtTime(0.6, at + seconds - 0.04);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + seconds);
      gain.connect(c.destination);
      const osc = c.createOscillator();
      osc.type = "square";
      osc.frequency.value = hz;
      osc.connect(gain);
      osc.start(at);
      osc.stop(at + seconds + 0.01);
    }
    return true;
  }

  return {
    /* The last seconds of a turn begin: one short low beep. */
    warn: () => beeps(1, 660, 0.15, 0),
    /* 0:00: three long high beeps. */
    expired: () => beeps(3, 880, 0.4, 0.15),
  };
})();
