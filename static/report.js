/* The battle report's one script: the "Print or save as PDF" button (shown only when scripts
 * run; without them the browser's own Print does the same). A static file: the
 * Content-Security-Policy allows no inline code. */
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var buttons = document.querySelectorAll("[data-print]");
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].hidden = false;
      buttons[i].addEventListener("click", function () { window.print(); });
    }
  });
})();
