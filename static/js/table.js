// The table's websocket client. The server renders every region (the same partials as
// the page); this file only swaps them in, keeps the card selection, and sends actions
// carrying the version they were made against (STYLE pitfall 8).
(function () {
  "use strict";
  const root = document.getElementById("table");
  if (!root) return;
  let version = Number(root.dataset.version || 0);
  let socket = null;
  let retry = 0;
  const conn = document.getElementById("conn");

  function url() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    return scheme + location.host + root.dataset.ws;
  }

  function selectedCards() {
    return Array.from(root.querySelectorAll('.card-btn[aria-pressed="true"]')).map((b) => b.dataset.card);
  }

  function swap(regions) {
    const keep = selectedCards();
    for (const [id, html] of Object.entries(regions)) {
      const el = document.getElementById(id);
      if (el) el.innerHTML = html;
    }
    // Re-select what is still in hand (identical cards are interchangeable).
    const buttons = Array.from(root.querySelectorAll(".card-btn"));
    for (const code of keep) {
      const b = buttons.find((x) => x.dataset.card === code && x.getAttribute("aria-pressed") !== "true");
      if (b) b.setAttribute("aria-pressed", "true");
    }
    if (keep.length && root.querySelector('.hand[data-selectable="1"]')) classify();
  }

  function showError(message) {
    const box = document.getElementById("errors");
    box.textContent = message;
    box.classList.add("visible");
    clearTimeout(showError.timer);
    showError.timer = setTimeout(() => box.classList.remove("visible"), 6000);
  }

  function send(payload) {
    payload.version = version;
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(payload));
    else showError(conn.dataset.offline);
  }

  function classify() {
    send({ action: "classify", cards: selectedCards() });
  }

  function onMessage(event) {
    const msg = JSON.parse(event.data);
    if (msg.type === "state") {
      if (msg.version < version) return; // an older push overtaken by a newer one
      version = msg.version;
      root.dataset.version = String(version);
      swap(msg.html);
    } else if (msg.type === "card") {
      if (msg.version !== version) return send({ action: "sync" }); // gap: ask for a resync
      swap(msg.html);
    } else if (msg.type === "selection") {
      const box = document.getElementById("selection");
      if (box) box.innerHTML = msg.html;
      root.querySelectorAll('[data-action="play"], [data-action="bury"]').forEach((b) => { b.disabled = !msg.legal; });
    } else if (msg.type === "error") {
      showError(msg.message);
    } else if (msg.type === "closed") {
      showError(msg.message);
      retry = -1; // the server ended this seat's session: do not reconnect
    }
  }

  function connect() {
    socket = new WebSocket(url());
    socket.onopen = () => { retry = 0; conn.textContent = conn.dataset.online; conn.classList.add("online"); };
    socket.onmessage = onMessage;
    socket.onclose = (event) => {
      conn.textContent = conn.dataset.offline;
      conn.classList.remove("online");
      if (retry < 0 || event.code === 1008 || event.code >= 4000) return;
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 250 * 2 ** retry);
    };
  }

  root.addEventListener("click", (event) => {
    const cardButton = event.target.closest(".card-btn");
    if (cardButton) {
      if (!root.querySelector('.hand[data-selectable="1"]')) return;
      const pressed = cardButton.getAttribute("aria-pressed") === "true";
      cardButton.setAttribute("aria-pressed", pressed ? "false" : "true");
      classify();
      return;
    }
    const button = event.target.closest("[data-action]");
    if (!button || button.disabled) return;
    const action = button.dataset.action;
    const payload = { action: action };
    if (button.dataset.seat !== undefined) payload.seat = Number(button.dataset.seat);
    if (button.dataset.level) payload.level = button.dataset.level;
    if (action === "declare") payload.cards = button.dataset.cards.split(",");
    if (action === "play" || action === "bury") payload.cards = selectedCards();
    send(payload);
  });

  connect();
})();
