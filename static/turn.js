// The turn panels' small helpers. Everything works without this file; it adds two things:
// 1. a brief flash on any value that a swap changed ([data-watch] elements, matched by id);
//    the CSS turns the animation off under prefers-reduced-motion;
// 2. after a step (HX-Trigger "game-step"), any panel still showing an older step is re-fetched,
//    so panels a response did not carry (the roster) follow too; when the page has the live
//    stream (#live, live.js) that job is left to it.
(function () {
  "use strict";
  var before = {};

  function remember(root) {
    (root || document).querySelectorAll("[data-watch][id]").forEach(function (el) {
      before[el.id] = el.getAttribute("data-watch");
    });
  }

  function flashChanged() {
    document.querySelectorAll("[data-watch][id]").forEach(function (el) {
      var old = before[el.id];
      if (old !== undefined && old !== el.getAttribute("data-watch")) {
        el.classList.remove("changed");
        void el.offsetWidth; // restart the animation
        el.classList.add("changed");
      } else if (old === undefined && Object.keys(before).length) {
        el.classList.add("changed"); // a new condition (Knocked down, a Glitch) appears
      }
    });
    before = {};
  }

  function panelUrl(name) {
    var m = location.pathname.match(/^\/(g|v)\/[^/]+/);
    return m ? m[0] + "/panels/" + name : null;
  }

  function followStep(seq) {
    var layout = document.querySelector("[data-game-seq]");
    if (layout) layout.setAttribute("data-game-seq", String(seq));
    if (document.getElementById("live")) return; // the live stream (live.js) refreshes panels itself
    document.querySelectorAll("[data-panel]").forEach(function (el) {
      if (el.getAttribute("data-seq") === String(seq)) return;
      var url = panelUrl(el.getAttribute("data-panel"));
      if (url && window.htmx) htmx.ajax("GET", url, { target: el, swap: "outerHTML" });
    });
  }

  // The values on screen before the first request of a round; a refresh that follows the step
  // (the roster, below) must not overwrite them with the already-new values.
  document.addEventListener("htmx:beforeRequest", function () { if (!Object.keys(before).length) remember(); });
  document.addEventListener("htmx:afterSettle", function () { setTimeout(flashChanged, 0); });
  document.addEventListener("game-step", function (evt) {
    var seq = evt.detail && evt.detail.seq;
    if (seq !== undefined) setTimeout(function () { followStep(seq); }, 0);
  });
  document.addEventListener("animationend", function (evt) {
    if (evt.target.classList) evt.target.classList.remove("changed");
  });
})();
