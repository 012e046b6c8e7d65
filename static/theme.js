/* Light or dark theme, kept on this device. Loaded without `defer` in <head>, so the saved theme
 * is set before the first paint (the page never flashes); the toggle is wired once the page is
 * parsed. A static file, not an inline script: the Content-Security-Policy allows no inline code. */
(function () {
  "use strict";
  var root = document.documentElement;
  var saved = null;
  try { saved = localStorage.getItem("theme"); } catch (e) { /* storage blocked: keep the default */ }
  if (saved === "light" || saved === "dark") root.dataset.theme = saved;

  function toggle() {
    root.dataset.theme = root.dataset.theme === "light" ? "dark" : "light";
    try { localStorage.setItem("theme", root.dataset.theme); } catch (e) { /* not kept, still switched */ }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("theme-toggle");
    if (button) button.addEventListener("click", toggle);
  });
})();
