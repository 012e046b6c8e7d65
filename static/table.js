// At the table (issue 9): the page's small helpers for playing by taps. No inline handlers: every
// behaviour hangs off data attributes through listeners here. Everything works without this file;
// it adds:
// 1. steppers: a − or + button (data-step, data-for) changes the number beside it;
// 2. dice-pool chips: a count chip per colour writes the pool text ("2 red + 1 white"); the
//    "+ Sentry" buttons choose the new AI-Bot's role;
// 3. focus and scroll after a swap: the result of a step, or the question to answer next
//    ([data-focus-next]), comes into view; after a roster change the roster stays in view;
// 4. "Keep the screen awake" (the Wake Lock API), remembered on this device;
// 5. dice by hand: opening a roll's "Dice by hand" fold, or tapping one of its count chips, means
//    the player enters that roll ("I enter dice"); closing the fold gives it back to the app;
// 6. a hack's opposing stat follows the Character's stat chip to the same-named AI-Bot stat
//    (a Mission that pits Defense against Defense), until the player taps an opposing chip.
(function () {
  "use strict";

  // 1. Steppers --------------------------------------------------------------------------
  function step(button) {
    var input = document.getElementById(button.getAttribute("data-for"));
    if (!input) return;
    var value = parseInt(input.value, 10);
    if (isNaN(value)) value = 0;
    value += parseInt(button.getAttribute("data-step"), 10);
    var low = button.getAttribute("data-low"), high = button.getAttribute("data-high");
    if (low !== null) value = Math.max(parseInt(low, 10), value);
    if (high !== null) value = Math.min(parseInt(high, 10), value);
    input.value = String(value);
    input.dispatchEvent(new Event("input", {bubbles: true}));
    input.dispatchEvent(new Event("change", {bubbles: true}));
  }

  // 2. Dice-pool chips: each colour's radio group (data-pool-for) -> the pool's text field ------
  function writePool(group) {
    var field = document.getElementById(group.getAttribute("data-pool-for"));
    if (!field) return;
    var parts = [];
    group.querySelectorAll("[data-colour]").forEach(function (row) {
      var picked = row.querySelector("input:checked");
      var n = picked ? parseInt(picked.value, 10) : 0;
      if (n > 0) parts.push(n + " " + row.getAttribute("data-colour"));
    });
    field.value = parts.join(" + ");
  }

  // "+ Sentry" (a[data-open][data-role]): turn.js opens the new AI-Bot form; the role is chosen here.
  function chooseRole(link) {
    var details = document.getElementById(link.getAttribute("data-open"));
    var radio = details && details.querySelector("input[name=role][value='" + link.getAttribute("data-role") + "']");
    if (radio) { radio.checked = true; radio.dispatchEvent(new Event("change", {bubbles: true})); }
  }

  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest("button[data-step][data-for]");
    if (button) { evt.preventDefault(); step(button); }
    var link = evt.target.closest && evt.target.closest("a[data-open][data-role]");
    if (link) chooseRole(link);
  });
  document.addEventListener("change", function (evt) {
    var group = evt.target.type === "radio" && evt.target.closest("[data-pool-for]");
    if (group) writePool(group);  // a chip tapped (typing in the text field leaves it as typed)
  });

  // 5. Dice by hand ------------------------------------------------------------------------
  function setDiceMode(fold, entered) {
    var radio = fold.querySelector("input[name=dice][value=" + (entered ? "entered" : "app") + "]");
    if (radio && !radio.checked) radio.checked = true;
  }
  document.addEventListener("toggle", function (evt) {  // toggle does not bubble: captured
    var fold = evt.target;
    if (fold.matches && fold.matches("details[data-by-hand]")) setDiceMode(fold, fold.open);
  }, true);
  document.addEventListener("change", function (evt) {
    var fold = evt.target.closest && evt.target.closest("details[data-by-hand]");
    if (fold && evt.target.closest(".entered-grid")) setDiceMode(fold, true);
    // 6. the opposing stat, while the player has not chosen one
    var form = evt.target.form;
    if (!form || evt.target.type !== "radio") return;
    var follows = form.querySelector("fieldset.follows-stat");
    if (!follows) return;
    if (evt.target.closest("fieldset.follows-stat")) { follows.setAttribute("data-chosen", ""); return; }
    if (evt.target.name !== "stat" || follows.hasAttribute("data-chosen")) return;
    follows.querySelectorAll("input").forEach(function (i) {
      i.checked = i.value === evt.target.value.toLowerCase();
    });
  });

  // 3. Focus and scroll -------------------------------------------------------------------
  // What the sticky top bar and the fixed Undo bar leave of the viewport (their heights differ
  // between a phone and a tablet).
  function clearTop() {
    var bar = document.querySelector(".topbar");
    return bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
  }

  function clearBottom() {
    var bar = document.getElementById("turn-bar");
    return bar ? bar.getBoundingClientRect().top : window.innerHeight;
  }

  /* The step's result (or the question to answer next) in view, clear of both bars. A result
     inside a Character's card ([data-view-from]) brings the card to the top: the card's other
     reports and the next card follow below it. Then the control the turn needs next
     ([data-next], when the server marks one) is brought up from below while the result stays. */
  function bringIntoView(el, focus) {
    if (!el) return;
    var from = el.closest("[data-view-from]") || el;
    var top = from.getBoundingClientRect().top, clear = clearTop(), bottom = clearBottom();
    if (from !== el || top < clear || top > clear + (bottom - clear) * 0.5) {
      window.scrollBy({top: top - clear - 6, behavior: "instant"});
    }
    var next = document.querySelector("#panel-turn [data-next]");
    if (next) {
      var below = next.getBoundingClientRect().bottom - clearBottom() + 6;
      var room = el.getBoundingClientRect().top - clearTop() - 6;
      if (below > 0) window.scrollBy({top: Math.min(below, Math.max(room, 0)), behavior: "instant"});
    }
    if (focus) {
      var field = el.matches("input, select, textarea, button") ? el :
        el.querySelector("input:not([type=hidden]), select, textarea, button:not([disabled])");
      if (field) field.focus({preventScroll: true});
    }
  }

  // A step's result stays in view while the live refresh swaps the other panels just after it
  // (their new heights would push it away), until the player scrolls or 3 s have passed.
  var kept = null;

  function resultOfStep() {
    var turn = document.getElementById("panel-turn");
    // the question to answer next first (a Phase 2 answer: the news above it is the step before)
    return turn && (turn.querySelector("[data-result][data-focus-next]") || turn.querySelector("[data-result]") ||
                    turn.querySelector("#phase-hint") ||
                    turn.querySelector("#turn-news") || turn.querySelector("h2"));
  }

  ["wheel", "touchmove", "keydown"].forEach(function (name) {
    window.addEventListener(name, function () { kept = null; }, {passive: true});
  });

  document.addEventListener("htmx:afterSettle", function (evt) {
    if (!evt.detail.requestConfig) {  // a live refresh (htmx.swap): keep the step's result in view
      if (kept && Date.now() < kept) bringIntoView(resultOfStep(), false);
      return;
    }
    // An outerHTML swap replaced the element htmx targeted: look its id up again.
    var target = evt.detail.target && evt.detail.target.id && document.getElementById(evt.detail.target.id);
    if (!target) return;
    var verb = (evt.detail.requestConfig.verb || "").toLowerCase();
    if (target.id === "panel-turn") {
      if (verb === "get") {  // "Activate next" (a bot picked): its first question, focused
        bringIntoView(target.querySelector("[data-focus-next]"), true);
      } else if (verb === "post") {  // a step made: its result, with what to do next below it
        // (a new phase: its "Now:" line, with the phase's first question below it)
        // (a question answered in Phase 2: the next question, focused for the keyboard)
        var result = resultOfStep();
        bringIntoView(result, !!(result && result.hasAttribute("data-focus-next")));
        kept = Date.now() + 3000;
      }
    } else if (target.id === "panel-roster" && verb === "post") {
      var added = target.querySelectorAll(".roster-item");
      bringIntoView(target.querySelector("[data-just-added]") || added[added.length - 1] || target, false);
    }
  });

  // 4. Keep the screen awake -------------------------------------------------------------
  var lock = null;
  var KEY = "keep-awake";

  function wanted() { return localStorage.getItem(KEY) === "1"; }

  function acquire() {
    if (!wanted() || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      lock.addEventListener("release", function () { lock = null; });
    }).catch(function () { lock = null; });
  }

  function release() {
    if (lock) { lock.release(); lock = null; }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("keep-awake");
    if (!box) return;
    if (!("wakeLock" in navigator)) {
      box.disabled = true;
      box.closest("label").title = "This browser cannot keep the screen awake.";
      return;
    }
    box.checked = wanted();
    box.addEventListener("change", function () {
      localStorage.setItem(KEY, box.checked ? "1" : "0");
      if (box.checked) acquire(); else release();
    });
    acquire();
  });
  // The lock is released whenever the page is hidden; take it again on return.
  document.addEventListener("visibilitychange", acquire);
})();
