// An event's socket (games/web/event_socket.py, event_watch.py). On the event page ("event"):
// each live region "event-<name>" replaced by the server's render; once registration has
// closed its forms go. A region whose content carries a state (data-state: the reader's
// registration) is replaced only when that state changes, so a push does not wipe a form
// being filled in. On a table's spectator page ("watch"): the delayed view replaced.
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
      if (target && !sameState(target, html)) target.innerHTML = html;
    }
    if (!m.registration) document.querySelectorAll(".event-registration").forEach((form) => form.remove());
  }
  function sameState(target, html) {
    const shown = target.firstElementChild;
    if (!shown || !shown.dataset.state) return false;
    const next = document.createElement("template");
    next.innerHTML = html;
    const coming = next.content.firstElementChild;
    return coming !== null && coming.dataset.state === shown.dataset.state;
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
