// A lesson's board (templates/learn/partials/board.html), enhanced: cards are picked here,
// without a round trip; a move is posted with fetch() and the server's new board fragment
// replaces the old one; the answer is read out through the page's live region. Without this
// script the same form works by plain posts (the server keeps the picked cards then).
// Keyboard as at the table: one tab stop for the hand, arrows move, Space picks, Enter plays.
(function () {
  "use strict";
  const holder = document.getElementById("lesson-board");
  const announcer = document.getElementById("lesson-announce");
  if (!holder) return;

  const form = () => holder.querySelector("[data-lesson-form]");
  const cardButtons = () => Array.from(holder.querySelectorAll(".hand .card-btn:not(:disabled)"));
  const picked = () => cardButtons().filter((b) => b.getAttribute("aria-pressed") === "true");

  function showCount() {
    const count = holder.querySelector("[data-selected-count]");
    if (count) count.textContent = String(picked().length);
    const primary = holder.querySelector("[data-primary]");
    if (primary) primary.disabled = picked().length === 0;
  }

  function rovingFocus(index) {
    handKeys.focus(cardButtons(), index);
  }

  function prepare() {
    rovingFocus(-1);
    showCount();
  }

  holder.addEventListener("click", (event) => {
    const card = event.target.closest(".hand .card-btn");
    if (!card || card.disabled) return;
    event.preventDefault(); // picking a card is this page's business, not the server's
    card.setAttribute("aria-pressed", card.getAttribute("aria-pressed") === "true" ? "false" : "true");
    const buttons = cardButtons();
    rovingFocus(buttons.indexOf(card));
    showCount();
  });

  handKeys.listen(holder, ".hand .card-btn", cardButtons, () => holder.querySelector("[data-primary]:not(:disabled)"));

  holder.addEventListener("submit", async (event) => {
    const submitter = event.submitter;
    if (!submitter || submitter.name !== "op") return;
    event.preventDefault();
    if (submitter.value === "clear") {
      picked().forEach((b) => b.setAttribute("aria-pressed", "false"));
      showCount();
      return;
    }
    const data = new FormData(form());
    data.set("op", submitter.value);
    picked().forEach((b) => data.append("cards", b.dataset.card));
    submitter.disabled = true;
    holder.setAttribute("aria-busy", "true"); // until the answer is on the page
    let html;
    try {
      const response = await fetch(form().action, {
        method: "POST",
        body: data,
        headers: { "X-Lesson-Fragment": "1" },
        credentials: "same-origin",
      });
      if (!response.ok) throw new Error(String(response.status));
      html = await response.text();
    } catch (error) {
      submitter.disabled = false;
      holder.removeAttribute("aria-busy");
      const fallback = document.createElement("input"); // post the plain way, the page reloads
      fallback.type = "hidden";
      fallback.name = "op";
      fallback.value = submitter.value;
      form().appendChild(fallback);
      form().submit();
      return;
    }
    holder.innerHTML = html;
    holder.removeAttribute("aria-busy");
    prepare();
    const feedback = holder.querySelector("[data-feedback]");
    announce(feedback ? feedback.querySelector("[data-announce]").textContent.trim() : "");
    if (feedback) feedback.scrollIntoView({ block: "nearest" });
    // Focus stays where the next move is made: the hand, else the way on (the next lesson).
    const next = holder.querySelector(".hand .card-btn[tabindex='0'], [data-testid='next-lesson'], .lesson-feedback .button");
    if (next) next.focus({ preventScroll: Boolean(feedback) });
  });

  function announce(text) {
    if (!announcer) return;
    announcer.textContent = ""; // the same answer twice is read out twice
    if (text) setTimeout(() => { announcer.textContent = text; }, 60);
  }

  prepare();
})();
