// A hand of card buttons with one tab stop (the table and the lessons): the arrows and
// Home/End move the focus, Space (the button's own key) picks a card, Enter presses the
// play button.
window.handKeys = {
  // Give the tab stop to button `index` and focus it; -1 keeps the current stop (or the first).
  focus(buttons, index) {
    if (!buttons.length) return;
    const current = buttons.findIndex((b) => b.tabIndex === 0);
    const target = index >= 0 ? Math.min(index, buttons.length - 1) : Math.max(current, 0);
    buttons.forEach((b, i) => { b.tabIndex = i === target ? 0 : -1; });
    if (index >= 0) buttons[target].focus();
  },

  // Keys on a card (`selector` under `root`) move among cards(); Enter presses primary().
  listen(root, selector, cards, primary) {
    root.addEventListener("keydown", (event) => {
      const card = event.target.closest && event.target.closest(selector);
      if (!card) return;
      const buttons = cards();
      const at = buttons.indexOf(card);
      const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, ArrowUp: at - 1, ArrowDown: at + 1, Home: 0, End: buttons.length - 1 };
      if (event.key in moves) {
        event.preventDefault();
        window.handKeys.focus(buttons, Math.max(0, Math.min(buttons.length - 1, moves[event.key])));
      } else if (event.key === "Enter") {
        event.preventDefault(); // Enter plays; Space picks
        const button = primary();
        if (button) button.click();
      }
    });
  },
};
