// The lobby socket (games/web/lobby.py) on every page: the lobby page's table list, and a
// signed-in player's invitations (docs/friends.md). Accepting is one click: the server
// seats the player through the table's write path and answers with the table's address.
(function () {
  const rows = document.getElementById("lobby-rows");
  const box = document.getElementById("invitations");
  if (!rows && !box) return;
  const path = rows ? rows.dataset.ws : box.dataset.ws;
  let ws = null;

  function expire() {  // an invitation past its time disappears without a round trip
    if (!box) return;
    const now = Date.now() / 1000;
    box.querySelectorAll("[data-expires]").forEach((el) => { if (Number(el.dataset.expires) <= now) el.remove(); });
  }

  function connect() {
    ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + path);
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.type === "lobby" && rows) rows.innerHTML = m.html;
      else if (m.type === "invitations" && box) { box.innerHTML = m.html; expire(); }
      else if (m.type === "seated") location.assign(m.url);
      else if (m.type === "error" && box) {
        const note = document.createElement("p");
        note.className = "invitation invitation--error";
        note.setAttribute("role", "alert");
        note.textContent = m.message;
        box.prepend(note);
        setTimeout(() => note.remove(), 6000);
      }
    };
    ws.onclose = (e) => { if (e.code < 4000) setTimeout(connect, 2000); };
  }

  if (box) {
    box.addEventListener("click", (e) => {
      const button = e.target.closest("[data-answer]");
      const card = button && button.closest("[data-invitation]");
      if (!card || !ws || ws.readyState !== WebSocket.OPEN) return;
      button.disabled = true;
      ws.send(JSON.stringify({ action: button.dataset.answer, invitation: Number(card.dataset.invitation) }));
    });
    setInterval(expire, 5000);
  }
  connect();
})();
