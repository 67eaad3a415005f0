// The table's websocket client. The server renders every region (the same partials as
// the page); this file only patches them in, keeps the card selection, and sends actions
// carrying the version they were made against (STYLE pitfall 8).
(function () {
  "use strict";
  const root = document.getElementById("table");
  if (!root) return;
  let version = Number(root.dataset.version || 0);
  let socket = null;
  let retry = 0;
  let pending = 0;        // classify requests sent and not answered yet
  let classifyTimer = null;
  const conn = document.getElementById("conn");
  const baseTitle = document.title;

  function url() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    return scheme + location.host + root.dataset.ws;
  }

  function selectedCards() {
    return Array.from(root.querySelectorAll('.card-btn[aria-pressed="true"]')).map((b) => b.dataset.card);
  }

  function selectable() {
    return Boolean(root.querySelector('.hand[data-selectable="1"]'));
  }

  // --- patching regions: only nodes that changed are replaced, so buttons under the
  // pointer (declare during a fast deal) survive a re-render and cards do not flicker.
  function sameAttributes(a, b) {
    if (a.attributes.length !== b.attributes.length) return false;
    for (const attr of a.attributes) {
      if (b.getAttribute(attr.name) !== attr.value) return false;
    }
    return true;
  }

  function morph(live, fresh) {
    if (live.nodeType !== fresh.nodeType || live.nodeName !== fresh.nodeName) {
      live.replaceWith(fresh);
    } else if (live.nodeType !== Node.ELEMENT_NODE) {
      if (live.nodeValue !== fresh.nodeValue) live.nodeValue = fresh.nodeValue;
    } else if (!sameAttributes(live, fresh)) {
      live.replaceWith(fresh);
    } else {
      morphChildren(live, fresh);
    }
  }

  function morphChildren(live, fresh) {
    const next = Array.from(fresh.childNodes);
    const now = Array.from(live.childNodes);
    if (next.length !== now.length) {
      live.replaceChildren(...next);
      return;
    }
    next.forEach((node, i) => morph(now[i], node));
  }

  function swap(regions) {
    const keep = selectedCards();
    const open = {};
    root.querySelectorAll("details[data-keep]").forEach((d) => { open[d.dataset.keep] = d.open; });
    for (const [id, html] of Object.entries(regions)) {
      const el = document.getElementById(id);
      if (!el) continue;
      const template = document.createElement("template");
      template.innerHTML = html;
      morphChildren(el, template.content);
    }
    root.querySelectorAll("details[data-keep]").forEach((d) => {
      if (d.dataset.keep in open) d.open = open[d.dataset.keep];
    });
    // Re-select what is still in hand (identical cards are interchangeable).
    if (selectable()) {
      const buttons = Array.from(root.querySelectorAll(".card-btn"));
      for (const code of keep) {
        const b = buttons.find((x) => x.dataset.card === code && x.getAttribute("aria-pressed") !== "true");
        if (b) b.setAttribute("aria-pressed", "true");
      }
      if (selectedCards().length) selectionChanged();
    }
    updateCounter();
    updateTitle();
  }

  // A card push carries only this seat's hand; the public dealt count travels as a number.
  function showDealt(dealt) {
    const meter = root.querySelector("#status .dealt[data-dealt]");
    if (!meter) return;
    meter.dataset.dealt = String(dealt);
    meter.textContent = dealt + " / 100";
    const bar = root.querySelector("#status .meter-bar");
    if (bar) bar.style.width = dealt + "%";
  }

  // During the deal only this seat's own cards are pushed; each push carries every seat's
  // (public) card count, computed by the server, so the page knows no deal order.
  function showCounts(counts) {
    (counts || []).forEach((n, seat) => {
      const count = root.querySelector(`.seat[data-seat="${seat}"] .count-n`);
      if (count) count.textContent = String(n);
    });
  }

  // A dealt card comes alone: its button (server-rendered) and its place in the sorted
  // hand; the suit-group breaks are then laid out again as the server lays them out.
  function addDealtCard(msg) {
    const hand = root.querySelector("#hand .hand");
    if (!hand) return false;
    const template = document.createElement("template");
    template.innerHTML = msg.html;
    const button = template.content.firstElementChild;
    hand.querySelectorAll(".card-btn.arrived").forEach((b) => b.classList.remove("arrived"));
    button.classList.add("arrived");
    hand.insertBefore(button, hand.querySelectorAll(".card-btn")[msg.index] || null);
    hand.querySelectorAll(".group-break").forEach((b) => b.remove());
    let group = null;
    hand.querySelectorAll(".card-btn").forEach((b) => {
      if (b.dataset.group === group) return;
      group = b.dataset.group;
      const gap = document.createElement("span");
      gap.className = "group-break";
      gap.dataset.group = group;
      hand.insertBefore(gap, b);
    });
    const empty = root.querySelector("#hand .hand-empty");
    if (empty) empty.remove();
    const count = root.querySelector("#hand .hand-count");
    if (count) count.textContent = String(hand.querySelectorAll(".card-btn").length);
    if (msg.declare !== undefined) {
      const options = document.getElementById("declare-options");
      if (options) options.innerHTML = msg.declare;
    }
    return true;
  }

  function updateCounter() {
    const n = selectedCards().length;
    root.querySelectorAll("[data-selected-count]").forEach((el) => { el.textContent = String(n); });
  }

  function updateTitle() {
    const mine = root.querySelector(".hand-panel.my-turn");
    document.title = mine ? "● " + root.dataset.yourTurn + " · " + baseTitle : baseTitle;
  }

  function actionButtons() {
    return root.querySelectorAll('[data-action="play"], [data-action="bury"]');
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
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(payload));
      return true;
    }
    showError(conn.dataset.offline);
    return false;
  }

  // The selection changed: the action button waits for the server's verdict on it.
  // Quick successive taps are sent as one question.
  function selectionChanged() {
    actionButtons().forEach((b) => { b.disabled = true; });
    updateCounter();
    clearTimeout(classifyTimer);
    classifyTimer = setTimeout(() => {
      classifyTimer = null;
      if (send({ action: "classify", cards: selectedCards() })) pending += 1;
    }, 80);
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
      showDealt(msg.dealt);
      if (!addDealtCard(msg)) return send({ action: "sync" });
      showCounts(msg.counts);
    } else if (msg.type === "selection") {
      pending = Math.max(0, pending - 1);
      if (pending || classifyTimer) return; // a newer selection is on its way
      const box = document.getElementById("selection");
      if (box) box.innerHTML = msg.html;
      actionButtons().forEach((b) => { b.disabled = !msg.legal; });
    } else if (msg.type === "error") {
      showError(msg.message);
      if (selectable() && selectedCards().length) selectionChanged(); // let them try again
    } else if (msg.type === "closed") {
      showError(msg.message);
      retry = -1; // the server ended this seat's session: do not reconnect
    }
  }

  function connect() {
    socket = new WebSocket(url());
    socket.onopen = () => { retry = 0; pending = 0; conn.textContent = conn.dataset.online; conn.classList.add("online"); };
    socket.onmessage = onMessage;
    socket.onclose = (event) => {
      conn.textContent = conn.dataset.offline;
      conn.classList.remove("online");
      if (retry < 0 || event.code === 1009 || event.code >= 4000) return;
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 250 * 2 ** retry);
    };
  }

  root.addEventListener("click", (event) => {
    const cardButton = event.target.closest(".card-btn");
    if (cardButton) {
      if (!selectable()) return;
      const pressed = cardButton.getAttribute("aria-pressed") === "true";
      cardButton.setAttribute("aria-pressed", pressed ? "false" : "true");
      selectionChanged();
      return;
    }
    if (event.target.closest("[data-clear]")) {
      root.querySelectorAll('.card-btn[aria-pressed="true"]').forEach((b) => b.setAttribute("aria-pressed", "false"));
      selectionChanged();
      return;
    }
    const button = event.target.closest("[data-action]");
    if (!button || button.disabled) return;
    const action = button.dataset.action;
    const payload = { action: action };
    if (button.dataset.seat !== undefined) payload.seat = Number(button.dataset.seat);
    if (button.dataset.level) payload.level = button.dataset.level;
    if (action === "declare") payload.cards = button.dataset.cards.split(",");
    if (action === "play" || action === "bury") {
      payload.cards = selectedCards();
      button.disabled = true; // one click, one action
      // These cards are committed: a push that puts me on turn again (I won the trick)
      // must not re-select their identical twins still in my hand.
      root.querySelectorAll('.card-btn[aria-pressed="true"]').forEach((b) => b.setAttribute("aria-pressed", "false"));
      updateCounter();
    }
    send(payload);
  });

  updateTitle();
  connect();
})();
