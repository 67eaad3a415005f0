// An event's socket (games/web/event_socket.py, event_watch.py): the region it shows (the
// standings, or a table's delayed view), replaced whenever the server says the event changed.
// Reconnects after a dropped connection (not after a 4xxx refusal).
(function () {
  const region = document.querySelector("[data-ws][data-kind]");
  if (!region) return;
  let wait = 1000;
  function connect() {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + region.dataset.ws);
    ws.onopen = () => { wait = 1000; };
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.type === region.dataset.kind) region.innerHTML = m.html;
    };
    ws.onclose = (e) => {
      if (e.code >= 4000) return;
      setTimeout(connect, wait);
      wait = Math.min(wait * 2, 30000);
    };
  }
  connect();
})();
