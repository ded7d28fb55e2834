/* rummiref: the rounds a phone entered that the server has not confirmed yet (its outbox).

   Each waiting write is kept in this phone's storage, in the order it was entered, with the
   Idempotency-Key it was first sent with (a new round) or the round version it changes (an
   edit, sent with If-Match). Sending again after a lost answer therefore never counts a round
   twice: the server answers a repeated key with its first answer. The outbox survives a reload
   and the browser being closed; game-saving.js sends it when the connection comes back. */
"use strict";

const RROutbox = (() => {
  const PREFIX = "rummiref:outbox:";
  const OLD_PENDING = "rummiref:pending:";  // one unsent round, as pages kept it before

  function store() {
    try { return window.localStorage; } catch (e) { return null; }
  }

  /* The outbox of one game; `send(req)` sends one write and resolves with the server's answer
     or rejects with an RR.ApiError (status 0: no connection). */
  function open(gameId, send) {
    const key = PREFIX + gameId;
    const s = store();

    function list() {
      try { return JSON.parse((s && s.getItem(key)) || "[]").filter((r) => r && r.id); } catch (e) { return []; }
    }
    function write(items) {
      if (!s) return;
      try {
        if (items.length) s.setItem(key, JSON.stringify(items)); else s.removeItem(key);
      } catch (e) { /* storage full: what is shown stays, the write is not kept */ }
    }

    if (s && s.getItem(OLD_PENDING + gameId)) {
      try {
        const old = JSON.parse(s.getItem(OLD_PENDING + gameId));
        if (old && old.method) write(list().concat([Object.assign({ id: old.key || RR.randomKey() }, old)]));
      } catch (e) { /* unreadable: dropped */ }
      s.removeItem(OLD_PENDING + gameId);
    }

    function add(req) {
      const item = Object.assign({ id: RR.randomKey() }, req);
      write(list().concat([item]));
      return item;
    }
    function remove(id) { write(list().filter((r) => r.id !== id)); }
    function clear() { write([]); }

    /* Send what waits, oldest first, one at a time, stopping at the first write that gets no
       answer (it is tried again later). A write the server refuses (the game is over, the round
       was changed on another phone) leaves the outbox and is reported. Resolves with
       {sent, refused: [{req, error}], left}. Calls made while a flush runs share it. */
    let running = null;
    function flush() {
      if (running) return running;
      running = (async () => {
        const out = { sent: 0, refused: [], left: 0 };
        for (;;) {
          const next = list()[0];
          if (!next) break;
          try {
            await send(next);
            remove(next.id);
            out.sent += 1;
          } catch (e) {
            if (e.status === 0 || e.status >= 500) break;
            remove(next.id);
            out.refused.push({ req: next, error: e });
          }
        }
        out.left = list().length;
        return out;
      })().finally(() => { running = null; });
      return running;
    }

    return { list, add, remove, clear, flush, size: () => list().length };
  }

  return { open };
})();
