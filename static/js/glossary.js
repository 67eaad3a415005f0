// Glossary terms ({% term %}, games/templatetags/glossary.py). CSS shows a term's tip on hover
// and keyboard focus; here: a tap shows it instead of following the link (a second tap, or
// Enter, follows it), a tap elsewhere closes it, Escape hides it, and a tip that would reach
// past the window's right edge moves left. Delegated on the document: terms pushed into the
// page later work too.
(() => {
  let touch = false;
  const wrapOf = (node) => node instanceof Element && node.closest(".term-wrap");

  function fit(wrap) {
    const tip = wrap.querySelector(".term-tip");
    const term = wrap.querySelector(".term");
    if (!tip || !term) return;
    tip.style.removeProperty("--term-shift");
    const box = tip.getBoundingClientRect();
    const over = box.right - (document.documentElement.clientWidth - 8);
    if (over > 0) tip.style.setProperty("--term-shift", `${-Math.ceil(over)}px`);
    // On a phone the tip sits at the bottom of the screen: keep the word above it in view.
    const covered = term.getBoundingClientRect().bottom - box.top + 16;
    if (getComputedStyle(tip).position === "fixed" && covered > 0) window.scrollBy(0, covered);
  }

  function closeAll(except) {
    for (const open of document.querySelectorAll(".term-wrap.is-open")) {
      if (open !== except) open.classList.remove("is-open");
    }
  }

  document.addEventListener("pointerdown", (event) => { touch = event.pointerType !== "mouse"; }, true);

  document.addEventListener("click", (event) => {
    const term = event.target instanceof Element && event.target.closest("a.term");
    const wrap = term && wrapOf(term);
    closeAll(wrap);
    if (!wrap || !touch || wrap.classList.contains("is-open")) return;  // a mouse, or the second tap: follow
    event.preventDefault();
    wrap.classList.remove("is-dismissed");
    wrap.classList.add("is-open");
    term.focus({ preventScroll: true });
    fit(wrap);
  });

  document.addEventListener("mouseover", (event) => {
    const wrap = wrapOf(event.target);
    if (wrap && !wrap.contains(event.relatedTarget)) {
      wrap.classList.remove("is-dismissed");
      fit(wrap);
    }
  });

  document.addEventListener("focusin", (event) => {
    const wrap = wrapOf(event.target);
    if (wrap) {
      wrap.classList.remove("is-dismissed");
      fit(wrap);
    }
  });

  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    for (const wrap of document.querySelectorAll(".term-wrap")) {
      if (wrap.classList.contains("is-open") || wrap.matches(":hover") || wrap.contains(document.activeElement)) {
        wrap.classList.remove("is-open");
        wrap.classList.add("is-dismissed");
      }
    }
  });
})();
