// Runs before the page is drawn (a classic script in <head>): styles that
// only make sense with JavaScript apply from the first paint, without a flash.
document.documentElement.className = "js";

// The cards' high-contrast look on every page (css/cards.css, data-contrast):
// the choice made with the table's "High contrast" toggle (play/board.js
// keeps it under this key), else the system's "more contrast" setting.
(() => {
  const more = matchMedia("(prefers-contrast: more)");
  const show = () => {
    let chosen = null;
    try {
      chosen = localStorage.getItem("ligretto.play.contrast");
    } catch {
      chosen = null; // storage refused (private mode): the system decides
    }
    document.documentElement.dataset.contrast = (chosen ? chosen === "on" : more.matches) ? "on" : "off";
  };
  show();
  more.addEventListener("change", show);
  // Switched at a table in another tab: this page follows.
  window.addEventListener("storage", (event) => {
    if (event.key === "ligretto.play.contrast") show();
  });
})();
