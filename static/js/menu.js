(function () {  /* The phone menu: without script the menu simply stays open. */
  const button = document.querySelector(".menu-toggle"), menu = document.getElementById("site-menu");
  button.hidden = false;
  document.documentElement.classList.add("has-menu-toggle");
  button.addEventListener("click", () => {
    const open = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", String(open));
    menu.classList.toggle("is-open", open);
  });
})();
