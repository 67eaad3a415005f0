// The create-table form (templates/games/lobby.html): a named pace fills in its exact times
// under "Advanced", and changing a time there chooses "My own timing". The server applies
// the same rule (games/web/forms.py, PACES), so this only keeps what is shown true.
(() => {
  const form = document.querySelector(".create-form");
  if (!form) return;
  const paces = JSON.parse(form.dataset.paces || "{}");
  const deal = form.elements.deal_pace_ms;
  const window_ = form.elements.last_chance_ms;
  form.addEventListener("change", (event) => {
    const target = event.target;
    if (target.name === "pace" && paces[target.value]) {
      [deal.value, window_.value] = paces[target.value];
    }
  });
  for (const field of [deal, window_]) {
    field.addEventListener("input", () => {
      const own = form.querySelector('input[name="pace"][value="custom"]');
      if (own) own.checked = true;
    });
  }
})();
