// An event's socket (games/web/event_socket.py, event_watch.py). On the event page ("event"):
// each live region "event-<name>" replaced by the server's render; once registration has
// closed its forms go. On a table's spectator page ("watch"): the delayed view replaced.
// Reconnects after a dropped connection (not after a 4xxx refusal).
(function () {
  const region = document.querySelector("[data-ws][data-kind]");
  if (!region) return;
  let wait = 1000;
  function show(m) {
    if (m.type !== region.dataset.kind) return;
    if (m.type === "watch") {
      region.innerHTML = m.html;
      return;
    }
    for (const [name, html] of Object.entries(m.html)) {
      const target = document.getElementById("event-" + name);
      if (target) target.innerHTML = html;
    }
    if (!m.registration) document.querySelectorAll(".event-registration").forEach((form) => form.remove());
  }
  function connect() {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + region.dataset.ws);
    ws.onopen = () => { wait = 1000; };
    ws.onmessage = (e) => show(JSON.parse(e.data));
    ws.onclose = (e) => {
      if (e.code >= 4000) return;
      setTimeout(connect, wait);
      wait = Math.min(wait * 2, 30000);
    };
  }
  connect();
})();
