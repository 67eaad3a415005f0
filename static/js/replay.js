// Replay stepping: ← → Home End (and the step links) fetch the next step's frame as
// server-rendered HTML and swap it in, keeping the shareable ?step=N in the address bar.
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
        frame.innerHTML = html;
        if (push) history.pushState({ step: url.searchParams.get("step") }, "", url);
      })
      .catch((error) => {
        if (error.name !== "AbortError") location.href = url.href; // fall back to a page load
      });
  }

  document.addEventListener("keydown", (event) => {
    if (!KEYS.has(event.key) || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.target.closest("input, textarea, select, [contenteditable]")) return;
    const link = frame.querySelector('a[data-key="' + event.key + '"]');
    if (!link) return;
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
