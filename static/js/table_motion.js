// The motion of the cards on the table and the moments that have a sound (table.js
// calls snapshot() before it patches the regions and after() once they are patched).
//  - A card played flies in from its player's side once: cards already on the table
//    when a push arrives are marked "settled" so that a re-rendered slot does not replay it.
//  - A won trick stays in view at least HOLD_MS from the moment it was complete, even when
//    the next lead (a bot's) arrives at once: the server renders it as .trick-previous,
//    which is held over the new trick, then swept towards its winner. A tap skips it.
// prefers-reduced-motion removes the flights and the sweep (table.css); the hold stays.
(function () {
  "use strict";
  const HOLD_MS = 1500;
  const SWEEP_MS = 450;
  const completeSince = {}; // trick number → when this page first showed it complete
  let held = null;          // {trick, state: "holding" | "sweeping" | "gone", timer}

  // A play on the table: its seat and its cards.
  function playKey(el) {
    return el.closest(".slot").dataset.seat + ":" + Array.from(el.querySelectorAll("[data-card]")).map((c) => c.dataset.card).join(",");
  }

  function playedKeys(root) {
    return new Set(Array.from(root.querySelectorAll(".trick > .slot .played")).map(playKey));
  }

  function snapshot(root) {
    const done = root.querySelector(".trick[data-done]");
    return {
      played: playedKeys(root),
      myTurn: Boolean(root.querySelector(".hand-panel.my-turn")),
      done: done ? done.dataset.done : null,
      previous: (root.querySelector(".trick-previous") || {}).dataset?.trick || null,
      failed: Boolean(root.querySelector(".failed-throw")),
      result: Boolean(root.querySelector(".result")),
    };
  }

  function layer(root) {
    return held ? root.querySelector(`.trick-previous[data-trick="${held.trick}"]`) : null;
  }

  function show(root) {
    const el = layer(root);
    if (!el) return;
    el.classList.toggle("holding", held.state !== "gone");
    el.classList.toggle("sweep", held.state === "sweeping");
  }

  function sweep(root) {
    if (!held || held.state !== "holding") return;
    clearTimeout(held.timer);
    held.state = "sweeping";
    show(root);
    held.timer = setTimeout(() => { held.state = "gone"; show(root); }, SWEEP_MS);
  }

  function hold(root, trick) {
    if (held && held.trick === trick) return show(root);
    if (held) clearTimeout(held.timer);
    const since = completeSince[trick] ?? performance.now();
    completeSince[trick] = since;
    held = { trick: trick, state: "holding", timer: null };
    show(root);
    const left = HOLD_MS - (performance.now() - since);
    // Shown long enough already: sweep it away on the next frame (after the layer is drawn).
    held.timer = setTimeout(() => sweep(root), Math.max(left, 30));
  }

  function after(root, before) {
    const cues = [];
    const now = playedKeys(root);
    root.querySelectorAll(".trick > .slot .played").forEach((el) => {
      if (before.played.has(playKey(el))) el.classList.add("settled");
    });
    if ([...now].some((key) => !before.played.has(key))) cues.push("card");
    const done = root.querySelector(".trick[data-done]");
    if (done && completeSince[done.dataset.done] === undefined) {
      completeSince[done.dataset.done] = performance.now();
    }
    const previous = root.querySelector(".trick-previous");
    if (previous) hold(root, previous.dataset.trick);
    const newlyComplete = (done && done.dataset.done !== before.done) || (previous && previous.dataset.trick !== before.previous && previous.dataset.trick !== before.done);
    if (newlyComplete) cues.push("trick");
    if (!before.myTurn && root.querySelector(".hand-panel.my-turn")) cues.push("turn");
    if (!before.failed && root.querySelector(".failed-throw")) cues.push("failed");
    if (!before.result && root.querySelector(".result")) cues.push("result");
    return cues;
  }

  function skip(root) {
    sweep(root);
  }

  // The page as loaded: what is on the table is not news (no flights, no hold).
  function start(root) {
    root.querySelectorAll(".trick > .slot .played").forEach((el) => el.classList.add("settled"));
    const previous = root.querySelector(".trick-previous");
    if (previous) held = { trick: previous.dataset.trick, state: "gone", timer: null };
  }

  window.TableMotion = { snapshot: snapshot, after: after, skip: skip, start: start };
})();
