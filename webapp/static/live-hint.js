/* The live table's hint, for any phone on the page: a rack typed here, and the legal play that
   lays the most of its tiles on the table as the referee has it now, told as steps in the
   page's language (the server words them). Nothing is stored and no other phone sees it. */
"use strict";

(() => {
  const { t } = RR;
  const { $, page, call } = RRLive;
  const form = $("lv-hint-form");
  if (page !== "table" || !form) return;

  function show(words) {
    $("lv-hint-headline").textContent = words.headline;
    $("lv-hint-steps").replaceChildren(...words.steps.map((text) => {
      const item = document.createElement("li");
      item.textContent = text;
      return item;
    }));
    const after = $("lv-hint-table");
    after.hidden = !words.table;
    after.querySelector("span").textContent = words.table || "";
    const note = $("lv-hint-note");
    note.hidden = !words.note;
    note.textContent = words.note || "";
    $("lv-hint-result").hidden = false;
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const data = new FormData(form);
    const button = form.querySelector("button");
    const message = $("lv-hint-message");
    button.disabled = true;
    message.textContent = t("Looking for the best play…");
    try {
      const out = await call("POST", "/hint", { rack: data.get("rack"), player: data.get("player") });
      show(out.words);
      message.textContent = "";
    } catch (e) {
      $("lv-hint-result").hidden = true;
      message.textContent = e.message;
    } finally {
      button.disabled = false;
    }
  });
})();
