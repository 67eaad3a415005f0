// An uploaded match file's replay (templates/games/replay_upload.html): nothing is stored
// on the server, so each step link posts the checked file back with the step wanted.
(function () {
  "use strict";
  const form = document.getElementById("replay-steps");
  if (!form) return;
  const KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "Home", End: "End" };
  function go(href) {
    const step = new URL(href, location.href).searchParams.get("step");
    if (step === null) return false;
    form.elements.step.value = step;
    form.submit();
    return true;
  }
  document.getElementById("replay").addEventListener("click", (event) => {
    const link = event.target.closest('a[href^="?step="]');
    if (link && go(link.getAttribute("href"))) event.preventDefault();
  });
  form.elements.hand.addEventListener("change", () => { form.elements.step.value = "0"; form.submit(); });
  document.addEventListener("keydown", (event) => {
    if (!(event.key in KEYS) || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.target.closest("input, textarea, select")) return;
    const link = document.querySelector('#replay-frame a[data-key="' + event.key + '"]');
    if (link && go(link.getAttribute("href"))) event.preventDefault();
  });
})();
