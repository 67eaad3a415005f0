// Replay stepping: ← → Home End move trick by trick (games/history/steps.py), the card by
// card links one card; each fetches that step's frame as server-rendered HTML and swaps it
// in, keeping the shareable ?step=N in the address bar.
// Without this script every link still works as a plain page load.
(function () {
  "use strict";
  const frame = document.getElementById("replay-frame");
  if (!frame) return;
  const KEYS = new Set(["ArrowLeft", "ArrowRight", "Home", "End"]);
  let loading = null;

  function load(href, push) {
    const url = new URL(href, location.href);
    const fragment = new URL(url);
    fragment.searchParams.set("fragment", "1");
    if (loading) loading.abort();
    loading = new AbortController();
    return fetch(fragment, { signal: loading.signal, headers: { "X-Requested-With": "fetch" } })
      .then((response) => {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then((html) => {
        const focused = document.activeElement && frame.contains(document.activeElement) ? document.activeElement : null;
        const fineOpen = frame.querySelector(".replay-fine[open]") !== null;
        frame.innerHTML = html;
        if (fineOpen) frame.querySelector(".replay-fine").open = true; // card by card stays unfolded
        if (push) history.pushState({ step: url.searchParams.get("step") }, "", url);
        keepFocus(focused);
        announce();
      })
      .catch((error) => {
        if (error.name !== "AbortError") location.href = url.href; // fall back to a page load
      });
  }

  // The step's sentence and its cards by name ("li_wei plays: 10 of hearts, trump").
  function announce() {
    const status = document.getElementById("replay-announce");
    const what = frame.querySelector(".replay-what");
    if (!status || !what) return;
    const sentence = what.querySelector(".sentence").textContent.trim();
    const cards = [...what.querySelectorAll("[role=img]")].map((card) => card.getAttribute("aria-label"));
    status.textContent = [sentence, cards.join("; ")].filter(Boolean).join(" ");
  }

  // A step link that was focused is replaced with the frame: focus its successor (or, at
  // the first or last step where it is no link, the step counter), never the page's top.
  function keepFocus(focused) {
    if (!focused) return;
    let target = null;
    if (focused.dataset.key) target = frame.querySelector('a[data-key="' + focused.dataset.key + '"]');
    else if (focused.dataset.fine) target = frame.querySelector('a[data-fine="' + focused.dataset.fine + '"]');
    else return;
    if (!target) {
      target = frame.querySelector(".replay-counter");
      target.tabIndex = -1;
    }
    target.focus();
  }

  // Shift with ← → goes card by card (the "Card by card" links), unfolding them.
  const FINE = { ArrowLeft: "prev", ArrowRight: "next" };

  document.addEventListener("keydown", (event) => {
    if (!KEYS.has(event.key) || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.shiftKey && !(event.key in FINE)) return;
    if (event.target.closest("input, textarea, select, [contenteditable]")) return;
    const link = event.shiftKey
      ? frame.querySelector('a[data-fine="' + FINE[event.key] + '"]')
      : frame.querySelector('a[data-key="' + event.key + '"]');
    if (!link) return;
    if (event.shiftKey) link.closest("details").open = true;
    event.preventDefault();
    load(link.href, true);
  });

  document.getElementById("replay").addEventListener("click", (event) => {
    const link = event.target.closest('a[href^="?step="]');
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    load(link.href, true);
  });

  window.addEventListener("popstate", () => load(location.href, false));
})();
