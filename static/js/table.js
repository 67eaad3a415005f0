// The table's websocket client. The server renders every region (the same partials as
// the page); this file patches them in, keeps the card selection, and sends actions
// carrying the version they were made against (STYLE pitfall 8). Around that: the
// countdowns, the keyboard, the hint, sounds and the motion of the cards (docs/table-ui.md).
(function () {
  "use strict";
  const root = document.getElementById("table");
  if (!root) return;
  const motion = window.TableMotion;
  let version = Number(root.dataset.version || 0);
  let socket = null;
  let retry = 0;
  let ended = false;
  let pending = 0;        // classify requests sent and not answered yet
  let classifyTimer = null;
  let clockSkew = Number(root.dataset.now || Date.now()) - Date.now(); // server ms − this machine's ms
  let forcedAsked = -1;   // the version at which a forced play was last asked for
  let lastHint = null;    // the coach's last answer {version, cards, why} (Hint and Why? share it)
  let whyWanted = false;  // Why? was pressed before the hint came: show it when it does
  const conn = document.getElementById("conn");
  const baseTitle = document.title;
  const soundButton = root.querySelector("[data-sound-toggle]");
  let soundOn = root.dataset.sound === "1";

  function url() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    return scheme + location.host + root.dataset.ws;
  }

  function cardButtons() {
    return Array.from(root.querySelectorAll("#hand .card-btn"));
  }

  function selectedCards() {
    return Array.from(root.querySelectorAll('#hand .card-btn[aria-pressed="true"]')).map((b) => b.dataset.card);
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
    const focused = document.activeElement && document.activeElement.closest("#hand .card-btn");
    const focusIndex = focused ? cardButtons().indexOf(focused) : -1;
    const before = motion.snapshot(root);
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
    // Re-select what is still in hand (identical cards are interchangeable). A push without
    // the hand left the selection and its verdict as they were.
    if (selectable() && "hand" in regions) {
      const buttons = cardButtons();
      const stillPressed = selectedCards();
      for (const code of keep) {
        const at = stillPressed.indexOf(code);
        if (at >= 0) { stillPressed.splice(at, 1); continue; }
        const b = buttons.find((x) => x.dataset.card === code && x.getAttribute("aria-pressed") !== "true");
        if (b) b.setAttribute("aria-pressed", "true");
      }
      if (selectedCards().length) selectionChanged();
    }
    rovingFocus(focusIndex);
    const cues = motion.after(root, before);
    cues.forEach(sound);
    updateCounter();
    updateTitle();
    tick();
    askForcedPlay();
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
    rovingFocus(-1);
    return true;
  }

  function updateCounter() {
    const n = selectedCards().length;
    root.querySelectorAll("[data-selected-count]").forEach((el) => { el.textContent = String(n); });
  }

  function myTurn() {
    return Boolean(root.querySelector(".hand-panel.my-turn"));
  }

  function updateTitle() {
    document.title = myTurn() ? "● " + root.dataset.yourTurn + " · " + baseTitle : baseTitle;
  }

  function actionButtons() {
    return root.querySelectorAll('[data-action="play"], [data-action="bury"]');
  }

  // A refusal of the rules carries the link to the rules page's section that explains it
  // (rule_url, rule_text: games/web/socket_input.py), shown beside the sentence.
  function showError(message, refusal) {
    const box = document.getElementById("errors");
    box.textContent = message;
    if (refusal && refusal.rule_url) {
      const link = document.createElement("a");
      link.className = "rule-link";
      link.href = refusal.rule_url;
      link.target = "_blank";
      link.rel = "noopener";
      link.textContent = refusal.rule_text || refusal.rule_url;
      box.append(" ", link);
    }
    box.classList.add("visible");
    clearTimeout(showError.timer);
    showError.timer = setTimeout(() => box.classList.remove("visible"), 6000);
  }

  // The server ended this page's session (closed room, kick, ban) or no longer lets it in:
  // say so where the player looks, and stop reconnecting.
  function showEnded(message) {
    ended = true;
    const box = document.getElementById("ended");
    box.querySelector(".ended-message").textContent = message;
    box.hidden = false;
    conn.textContent = message;
    conn.classList.remove("online");
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

  function select(codes) {
    const buttons = cardButtons();
    buttons.forEach((b) => b.setAttribute("aria-pressed", "false"));
    for (const code of codes) {
      const b = buttons.find((x) => x.dataset.card === code && x.getAttribute("aria-pressed") !== "true");
      if (b) b.setAttribute("aria-pressed", "true");
    }
    selectionChanged();
  }

  // Hint asks the coach (a search of a few hundred ms, docs/analysis.md) for this turn's play,
  // and Why? shows the reason that came with it, in the polite live region under the hand.
  function askHint(why) {
    whyWanted = why;
    if (send({ action: "hint" })) hintBusy(true);
  }

  function hintBusy(busy) {
    root.querySelectorAll("[data-hint], [data-hint-why]").forEach((b) => {
      if (busy) b.setAttribute("aria-busy", "true");
      else b.removeAttribute("aria-busy");
    });
  }

  function showWhy() {
    whyWanted = false;
    const box = document.getElementById("hint-why");
    if (!box || !lastHint || !lastHint.why) return;
    box.textContent = lastHint.why;
    box.hidden = false;
  }

  // "Play forced moves for me" (Settings): on my turn, ask the server to play my only
  // legal play; it answers "not_forced" when I have a choice, and nothing changes.
  function askForcedPlay() {
    if (root.dataset.playForced !== "1" || !myTurn() || forcedAsked === version) return;
    if (!root.querySelector('.hand-panel[data-phase="play"]')) return;
    forcedAsked = version;
    send({ action: "play_forced" });
  }

  // --- countdowns: deadlines are the server's epoch ms; the skew comes with every push.
  function tick() {
    const now = Date.now() + clockSkew;
    root.querySelectorAll(".clock[data-deadline]").forEach((clock) => {
      const left = Math.max(0, Math.ceil((Number(clock.dataset.deadline) - now) / 1000));
      const text = String(left);
      const seconds = clock.querySelector(".clock-s");
      if (seconds.textContent !== text) seconds.textContent = text;
      clock.classList.toggle("low", left <= 5);
    });
  }
  setInterval(tick, 250);

  // --- sounds
  function sound(name) {
    if (soundOn && window.TableSound) window.TableSound.play(name);
  }

  function showSound() {
    if (soundButton) soundButton.setAttribute("aria-pressed", soundOn ? "true" : "false");
  }

  if (soundButton) {
    soundButton.addEventListener("click", () => {
      soundOn = !soundOn;
      showSound();
      const form = new FormData();
      form.append("name", "sound");
      form.append("on", soundOn ? "1" : "0");
      const token = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
      fetch(root.dataset.preferencesUrl, {
        method: "POST", body: form, credentials: "same-origin",
        headers: { "X-CSRFToken": token ? decodeURIComponent(token[1]) : "" },
      });
      if (soundOn) sound("card");
    });
  }
  showSound();

  // --- keyboard: one tab stop for the hand; arrows move, Space selects, Enter plays.
  function rovingFocus(index) {
    handKeys.focus(cardButtons(), index);
  }
  handKeys.listen(root, "#hand .card-btn", cardButtons, () =>
    root.querySelector('[data-action="play"]:not(:disabled), [data-action="bury"]:not(:disabled)'));

  function onMessage(event) {
    const msg = JSON.parse(event.data);
    if (msg.type === "state") {
      if (msg.version < version) return; // an older push overtaken by a newer one
      if (typeof msg.now === "number") clockSkew = msg.now - Date.now();
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
    } else if (msg.type === "hint") {
      hintBusy(false);
      if (typeof msg.version === "number" && msg.version !== version) return; // that turn is over
      lastHint = msg;
      select(msg.cards);
      if (whyWanted) showWhy();
    } else if (msg.type === "error") {
      hintBusy(false);
      if (msg.code === "not_forced") return; // I have a choice: nothing to do for me
      showError(msg.message, msg);
      if (selectable() && selectedCards().length) selectionChanged(); // let them try again
    } else if (msg.type === "closed") {
      showEnded(msg.message);
    }
  }

  // A refused reconnection reaches the page only as a dropped socket: after a few, ask
  // the page itself whether this player may still open it.
  function probeAccess() {
    fetch(location.href, { method: "HEAD", credentials: "same-origin" }).then((response) => {
      if (!ended && [403, 404, 410].includes(response.status)) showEnded(conn.dataset.gone);
    }, () => {});
  }

  function connect() {
    socket = new WebSocket(url());
    socket.onopen = () => { retry = 0; pending = 0; conn.textContent = conn.dataset.online; conn.classList.add("online"); };
    socket.onmessage = onMessage;
    socket.onclose = (event) => {
      if (ended) return;
      conn.textContent = conn.dataset.offline;
      conn.classList.remove("online");
      if (event.code === 1009 || event.code >= 4000) {
        if (event.code >= 4000) probeAccess();
        return;
      }
      retry = Math.min(retry + 1, 6);
      if (retry >= 3) probeAccess();
      setTimeout(connect, 250 * 2 ** retry);
    };
  }

  // A seated bot's level (the owner, before the match): chosen in its list, sent at once.
  root.addEventListener("change", (event) => {
    const list = event.target.closest("select[data-action]");
    if (!list) return;
    send({ action: list.dataset.action, seat: Number(list.dataset.seat), level: list.value });
  });

  root.addEventListener("click", (event) => {
    const term = event.target.closest("a.term"); // a game word's glossary entry (static/js/glossary.js)
    if (term) term.target = "_blank"; // opens beside the table: the hand goes on here
    if (event.target.closest(".trick, .card-btn, [data-action]")) motion.skip(root); // acting skips the held trick
    const cardButton = event.target.closest(".card-btn");
    if (cardButton) {
      cardButtons().forEach((b) => { b.tabIndex = b === cardButton ? 0 : -1; }); // Tab comes back here
      if (!selectable()) return;
      const pressed = cardButton.getAttribute("aria-pressed") === "true";
      cardButton.setAttribute("aria-pressed", pressed ? "false" : "true");
      selectionChanged();
      return;
    }
    if (event.target.closest("[data-clear]")) {
      select([]);
      return;
    }
    if (event.target.closest("[data-hint]")) {
      askHint(false);
      return;
    }
    if (event.target.closest("[data-hint-why]")) {
      if (lastHint && lastHint.version === version) showWhy();
      else askHint(true);
      return;
    }
    const button = event.target.closest("[data-action]");
    if (!button || button.disabled || button.tagName === "SELECT") return; // a list acts on change
    const action = button.dataset.action;
    const payload = { action: action };
    if (button.dataset.seat !== undefined) payload.seat = Number(button.dataset.seat);
    if (button.dataset.level) payload.level = button.dataset.level;
    if (button.dataset.levelFrom) payload.level = document.getElementById(button.dataset.levelFrom).value;
    if (action === "declare") payload.cards = button.dataset.cards.split(",");
    if (action === "ready") { // said once, for the hand whose result is shown
      payload.hand = Number(button.dataset.hand);
      button.disabled = true;
    }
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

  motion.start(root, sound); // a sound that waits for the motion (the result's)
  rovingFocus(-1);
  updateTitle();
  tick();
  connect();
})();
