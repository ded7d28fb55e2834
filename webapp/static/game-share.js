/* rummiref game sheet: sharing the game (the owner link and its QR code, this phone's name)
   and, at its end, the result: as text or a picture, and a rematch. */
"use strict";

(() => {
  const { el, api, t } = RR;
  const G = RRGame;
  const { $, body, hash, gameId, apiBase, token, isOwner } = G;

  const shareBase = body.dataset.shareBase;
  const ownerLink = shareBase + "/games/" + encodeURIComponent(gameId) + "#token=" + encodeURIComponent(token || "");
  if (isOwner) $("owner-link").value = ownerLink;
  document.querySelectorAll("button.copy").forEach((b) => b.addEventListener("click", () => {
    const target = $(b.dataset.copy);
    RR.copyText(target.value !== undefined ? target.value : target.textContent, b);
  }));
  if ($("owner-qr-show")) $("owner-qr-show").addEventListener("click", async () => {
    try {
      const resp = await fetch(body.dataset.qrUrl, { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ text: ownerLink }), cache: "no-store" });
      if (!resp.ok) throw new Error("no QR code");
      const img = $("owner-qr");
      img.src = URL.createObjectURL(await resp.blob());
      img.hidden = false;
      $("owner-qr-show").hidden = true;
    } catch (e) { alert(t("Could not draw the QR code; copy the link instead.")); }
  });
  const dev = $("device-name");
  dev.value = RR.device();
  dev.addEventListener("change", () => RR.setDevice(dev.value));
  if (hash.has("new")) {
    $("share").open = true;
  }

  const viewerUrl = () => ($("viewer-link") ? $("viewer-link").href : window.location.href.split("#")[0]);

  function shareStatus(text) {
    const box = document.querySelector("#winner .share-status");
    if (box) box.textContent = text;
  }

  async function shareText(card) {
    const text = card.dataset.shareText;
    const title = card.dataset.shareTitle;
    if (navigator.share) {
      try {
        await navigator.share({ title, text, url: viewerUrl() });
        return;
      } catch (e) {
        if (e && e.name === "AbortError") return;  // the person closed the share sheet
      }
    }
    await RR.copyText(text + "\n" + viewerUrl());
    shareStatus(t("Copied: paste it into a message."));
  }

  async function sharePicture(btn) {
    let blob;
    try {
      const resp = await fetch(btn.dataset.url, { cache: "no-store" });
      if (!resp.ok) throw new Error(String(resp.status));
      blob = await resp.blob();
    } catch (e) {
      shareStatus(t("Could not make the picture: no connection to the server."));
      return;
    }
    const name = "rummiref-" + gameId + ".png";
    const file = new File([blob], name, { type: "image/png" });
    if (navigator.canShare && navigator.canShare({ files: [file] })) {
      try {
        await navigator.share({ files: [file], title: document.title });
        return;
      } catch (e) {
        if (e && e.name === "AbortError") return;
      }
    }
    // No share sheet for pictures here: save it instead.
    const a = el("a", { href: URL.createObjectURL(blob), download: name });
    document.body.append(a);
    a.click();
    a.remove();
    shareStatus(t("The picture was saved as %(file)s.", { file: name }));
  }

  async function rematch(btn) {
    btn.disabled = true;
    try {
      const out = await api("POST", apiBase + "/rematch", { token });
      RR.setToken(out.id, token, out.game.players.map((p) => p.name));
      window.location.assign("/games/" + encodeURIComponent(out.id));
    } catch (e) {
      btn.disabled = false;
      shareStatus(e.status === 0 ? t("No connection: the rematch was not started.") : e.message);
    }
  }

  document.addEventListener("click", (ev) => {
    const card = ev.target.closest("#winner");
    if (!card) return;
    if (ev.target.closest(".share-result")) shareText(card);
    else if (ev.target.closest(".share-picture")) sharePicture(ev.target.closest(".share-picture"));
    else if (ev.target.closest(".rematch") && isOwner) rematch(ev.target.closest(".rematch"));
  });
})();
