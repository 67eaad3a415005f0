// The motion of the cards on the table and the moments that have a sound (table.js
// calls snapshot() before it patches the regions and after() once they are patched).
//  - A card played flies in from its player's side once: cards already on the table
//    when a push arrives are marked "settled" so that a re-rendered slot does not replay it.
//  - A won trick stays in view at least HOLD_MS from the moment it was complete, even when
//    the next lead (a bot's) arrives at once: the server renders it as .trick-previous,
//    which is held over the new trick, then swept towards its winner. A tap skips it.
//  - The hand's last trick is won in the same push as the hand's result: the result panel
//    (which lies over the felt on laptops) waits, hidden, until that trick has been in view
//    HOLD_MS and swept to its winner, or until a tap skips it; so does its sound.
// prefers-reduced-motion removes the flights and the sweep (table.css); the hold stays.
(function () {
  "use strict";
  const HOLD_MS = 1500;
  const SWEEP_MS = 450;
  const completeSince = {}; // trick number (this hand's) → when this page first showed it complete
  let held = null;          // {trick, state: "holding" | "sweeping" | "gone", timer}
  let finale = null;        // the hand's last trick before its result: {trick, winner, state, timer}
  let cue = () => {};       // plays a sound that waited (table.js's)

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

  // The last trick stays on the table; its result waits under it (`.after-trick`, hidden).
  function showFinale(root) {
    if (!finale) return;
    const trick = root.querySelector(`.trick[data-done="${finale.trick}"]`);
    if (trick) {
      trick.classList.add("finale");
      trick.classList.toggle("sweep", finale.state !== "holding");
      trick.dataset.sweep = finale.winner;
    }
    const result = root.querySelector(".result");
    if (result) result.classList.toggle("after-trick", finale.state !== "gone");
  }

  function sweepFinale(root) {
    if (!finale || finale.state !== "holding") return;
    clearTimeout(finale.timer);
    finale.state = "sweeping";
    showFinale(root);
    finale.timer = setTimeout(() => {
      finale.state = "gone";
      showFinale(root);
      cue("result");
    }, SWEEP_MS);
  }

  // The result arrived with the trick that ended the hand, still fresh: hold that trick first.
  function holdFinale(root, done) {
    const since = completeSince[done.dataset.done];
    const left = HOLD_MS - (performance.now() - since);
    if (left <= 0) return false;
    const winner = done.querySelector(".slot.winning");
    const place = winner ? (winner.className.match(/slot-(top|bottom|left|right)/) || [])[1] : "";
    finale = { trick: done.dataset.done, winner: place || "", state: "holding", timer: null };
    finale.timer = setTimeout(() => sweepFinale(root), left);
    return true;
  }

  function after(root, before) {
    const cues = [];
    if (before.result && !root.querySelector(".result")) newHand();
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
    if (!before.result && root.querySelector(".result")) {
      if (!(done && holdFinale(root, done))) cues.push("result");
    }
    showFinale(root);
    return cues;
  }

  // The result is gone: a new hand, whose tricks are numbered from 1 again.
  function newHand() {
    Object.keys(completeSince).forEach((n) => delete completeSince[n]);
    [held, finale].forEach((h) => h && clearTimeout(h.timer));
    held = finale = null;
  }

  function skip(root) {
    sweep(root);
    sweepFinale(root);
  }

  // The page as loaded: what is on the table is not news (no flights, no hold).
  function start(root, play) {
    if (play) cue = play;
    root.querySelectorAll(".trick > .slot .played").forEach((el) => el.classList.add("settled"));
    const previous = root.querySelector(".trick-previous");
    if (previous) held = { trick: previous.dataset.trick, state: "gone", timer: null };
  }

  window.TableMotion = { snapshot: snapshot, after: after, skip: skip, start: start };
})();
