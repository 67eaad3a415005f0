// The table's sounds, made with the Web Audio API (no files to fetch): your turn, a card
// played, a trick won, a failed throw, and the hand's result. Off or on per player
// (Settings, or the table's speaker button); browsers let sound start only after the
// player's first tap or key, so the audio context is made then.
(function () {
  "use strict";
  let context = null;

  // Each cue: [frequency Hz, start s, length s, wave] notes.
  const CUES = {
    turn: [[660, 0, 0.12, "sine"], [880, 0.13, 0.18, "sine"]],
    card: [[220, 0, 0.05, "triangle"]],
    trick: [[523, 0, 0.1, "triangle"], [659, 0.09, 0.1, "triangle"], [784, 0.18, 0.16, "triangle"]],
    failed: [[311, 0, 0.18, "sawtooth"], [233, 0.18, 0.3, "sawtooth"]],
    result: [[523, 0, 0.15, "sine"], [659, 0.15, 0.15, "sine"], [784, 0.3, 0.15, "sine"], [1047, 0.45, 0.35, "sine"]],
  };

  function unlock() {
    if (context || !(window.AudioContext || window.webkitAudioContext)) return;
    context = new (window.AudioContext || window.webkitAudioContext)();
  }
  ["pointerdown", "keydown"].forEach((kind) => document.addEventListener(kind, unlock, { once: true, capture: true }));

  function play(name) {
    const notes = CUES[name];
    if (!context || !notes) return;
    const start = context.currentTime + 0.01;
    for (const [frequency, at, length, wave] of notes) {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.type = wave;
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(0.18, start + at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(start + at);
      oscillator.stop(start + at + length + 0.05);
    }
  }

  window.TableSound = { play: play };
})();
