// The table chat's websocket client. The server renders (and escapes) every line with
// the same partial as the page; this file only inserts them, sends what is typed, and
// reconnects. On (re)connect the server sends the recent lines again, so nothing a
// dropped push lost stays missing.
(function () {
  "use strict";
  const root = document.getElementById("chat");
  if (!root) return;
  const log = document.getElementById("chat-log");
  const form = document.getElementById("chat-form");
  const input = document.getElementById("chat-input");
  const errorBox = document.getElementById("chat-error");
  const MAX_LINES = 200;
  let socket = null;
  let retry = 0;

  function url() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    return scheme + location.host + root.dataset.ws;
  }

  function nearBottom() {
    return log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  }

  function showError(message) {
    if (errorBox) errorBox.textContent = message || "";
  }

  function append(id, html) {
    if (log.querySelector('.chat-line[data-id="' + id + '"]')) return; // already shown
    const follow = nearBottom();
    const empty = log.querySelector(".chat-empty");
    if (empty) empty.remove();
    log.insertAdjacentHTML("beforeend", html); // server-rendered, already escaped
    while (log.children.length > MAX_LINES) log.firstElementChild.remove();
    if (follow) log.scrollTop = log.scrollHeight;
  }

  function onMessage(event) {
    const msg = JSON.parse(event.data);
    if (msg.type === "history") {
      if (msg.html) log.innerHTML = msg.html;
      log.scrollTop = log.scrollHeight;
    } else if (msg.type === "message") {
      append(msg.id, msg.html);
    } else if (msg.type === "deleted") {
      const line = log.querySelector('.chat-line[data-id="' + msg.id + '"]');
      if (line) line.remove();
    } else if (msg.type === "sent") {
      if (input) input.value = "";
      showError("");
    } else if (msg.type === "error") {
      showError(msg.message);
    } else if (msg.type === "closed") {
      showError(msg.message);
      retry = -1;
    }
  }

  function connect() {
    socket = new WebSocket(url());
    socket.onopen = () => { retry = 0; };
    socket.onmessage = onMessage;
    socket.onclose = (event) => {
      if (retry < 0 || event.code === 1009 || event.code >= 4000) return;
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 250 * 2 ** retry);
    };
  }

  if (form) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ action: "post", text: text }));
    });
  }

  log.scrollTop = log.scrollHeight;
  connect();
})();
