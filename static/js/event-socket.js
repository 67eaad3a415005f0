// The event page's socket (games/web/event_socket.py): the standings, replaced whenever the
// server says they changed. Reconnects after a dropped connection (not after a 4xxx refusal).
(function () {
  const region = document.getElementById("event-standings");
  if (!region) return;
  let wait = 1000;
  function connect() {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + region.dataset.ws);
    ws.onopen = () => { wait = 1000; };
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.type === "standings") region.innerHTML = m.html;
    };
    ws.onclose = (e) => {
      if (e.code >= 4000) return;
      setTimeout(connect, wait);
      wait = Math.min(wait * 2, 30000);
    };
  }
  connect();
})();
