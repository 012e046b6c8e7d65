// The turn panels' small helpers. Everything works without this file; it adds four things:
// 1. a brief flash on any value that a swap changed ([data-watch] elements, matched by id, compared
//    with what the screen showed before, whoever swapped it); the CSS turns the animation off
//    under prefers-reduced-motion; a marker beside the value (.was-changed) stays either way;
// 2. after a step (HX-Trigger "game-step"), any panel still showing an older step is re-fetched,
//    so panels a response did not carry (the roster) follow too; when the page has the live
//    stream (#live, live.js) that job is left to it; a panel's data-query rides along;
// 3. the log's data-query follows the pages "Show older steps" opened;
// 4. the first-run buttons open the roster form they point at (once fetched, its first field focused);
// 5. a swap that took the focused control away leaves the focus on what the step did (below).
(function () {
  "use strict";
  var FLASH_MS = 1200;  // as long as the CSS animation
  var known = null;     // id -> the value last seen on screen
  var until = {};       // id -> when its flash ends (a later swap of the same panel keeps it)
  var pending = false;
  var marks = {};       // id -> the value the latest change gave it (its ▴ mark, .was-changed)

  function check() {
    pending = false;
    var now = Date.now();
    var seen = {};
    var restart = [];
    var fresh = {};
    document.querySelectorAll("[data-watch][id]").forEach(function (el) {
      var value = el.getAttribute("data-watch");
      seen[el.id] = value;
      if (known === null) return;
      if (known[el.id] !== value) {  // changed, or a new condition (Knocked down, a Glitch) appears
        fresh[el.id] = value;  // marked (not colour alone) until a later step changes something
        until[el.id] = now + FLASH_MS;
        if (el.classList.contains("changed")) { el.classList.remove("changed"); restart.push(el); return; }
      }
      if (until[el.id] > now) el.classList.add("changed");
    });
    known = seen;
    if (Object.keys(fresh).length) marks = fresh;  // the latest change's values keep their mark
    document.querySelectorAll("[data-watch][id]").forEach(function (el) {
      el.classList.toggle("was-changed", marks[el.id] !== undefined && marks[el.id] === el.getAttribute("data-watch"));
    });
    // a flash already running starts again on the next frame (no forced layout to restart it here:
    // reading a size after a swap made the browser lay the page out twice per tap)
    if (restart.length) requestAnimationFrame(function () {
      restart.forEach(function (el) { el.classList.add("changed"); });
    });
  }

  function soon() {
    if (!pending) { pending = true; setTimeout(check, 0); }
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
      if (url && el.dataset.query) url += "?" + el.dataset.query;
      if (url && window.htmx) htmx.ajax("GET", url, { target: el, swap: "outerHTML" });
    });
  }

  // "Show older steps" appended a page to the log: a refresh of the log keeps it open that far.
  function keepLogOpen(evt) {
    var path = (evt.detail.pathInfo && evt.detail.pathInfo.requestPath) || "";
    if (!/\/log\?before=/.test(path)) return;
    var log = document.getElementById("panel-log");
    var steps = log ? log.querySelectorAll(".log-step") : [];
    if (!steps.length) return;
    var oldest = steps[steps.length - 1].getAttribute("data-seq");
    log.dataset.query = (log.dataset.before ? "before=" + log.dataset.before + "&" : "") + "oldest=" + oldest;
  }

  // First-run buttons (a[data-open]): open the roster's add form they point at and focus it.
  function openTarget(evt) {
    var link = evt.target.closest && evt.target.closest("a[data-open]");
    var details = link && document.getElementById(link.getAttribute("data-open"));
    if (!details) return;
    evt.preventDefault();
    details.open = true;
    details.scrollIntoView({block: "start"});
    focusFirst(details);
    // A folded form is fetched as its fold opens (_roster.html): its first field is focused once in
    awaiting = details.querySelector("input:not([type=hidden]), select, textarea") ? null : details;
  }

  var awaiting = null;  // the fold whose fetched form should take the focus

  function focusFirst(details) {
    var field = details.querySelector("input:not([type=hidden]), select, textarea") || details.querySelector("summary");
    if (field) field.focus({preventScroll: true});
  }

  function focusFetched(evt) {
    if (!awaiting || !awaiting.contains(evt.detail.target)) return;  // another panel's swap
    focusFirst(awaiting);
    awaiting = null;
  }

  // 5. WCAG 2.4.3: when a tap's answer replaced the panel holding the focused control (the tapped
  // button went with it), the focus goes to the step's result in that panel, never to the page's
  // top: the question to answer next, the result, the "Now:" line or the news, else the panel's
  // heading; a heading inside it when it has one. Focusable by script only (tabindex -1), so Tab
  // goes on from there. table.js may then move it on to the next question's first button.
  function resultIn(panel) {
    return panel.querySelector("[data-result][data-focus-next]") || panel.querySelector("[data-result]") ||
      panel.querySelector("#phase-hint") || panel.querySelector("#turn-news") ||
      panel.querySelector("h2, h3") || panel;
  }

  var held = null;       // the id the focus was put on after the player's last step
  var heldUntil = 0;     // ... kept there through the live refreshes that follow it (3 s)

  function focusOn(el) {
    if (!el.hasAttribute("tabindex") && !el.matches("a[href], button, input, select, textarea, summary"))
      el.setAttribute("tabindex", "-1");
    el.focus({preventScroll: true});
  }

  // Whether the focus was on an element when a request went out: a request made while nothing had
  // the focus (a fragment loading with the page, hx-trigger="load": the d20 attack odds) took no
  // focus away, so its answer moves none; the page's first Tab still reaches the skip link.
  var focusedAtRequest = typeof WeakSet === "function" ? new WeakSet() : null;

  function noteFocus(evt) {
    var active = document.activeElement;
    if (focusedAtRequest && evt.detail.xhr && active && active !== document.body && active !== document.documentElement)
      focusedAtRequest.add(evt.detail.xhr);
  }

  function keepFocus(evt) {
    var active = document.activeElement;
    var lost = !active || active === document.body || !active.isConnected;
    if (!evt.detail.requestConfig) {  // a live refresh took the focused element: back to it, by its id
      if (lost && held && Date.now() < heldUntil && document.getElementById(held)) focusOn(document.getElementById(held));
      return;
    }
    if (!lost) return;  // still on a control (htmx found the tapped one again by its id)
    if (focusedAtRequest && evt.detail.xhr && !focusedAtRequest.has(evt.detail.xhr)) return;  // none to lose
    var swapped = evt.detail.target;
    var panel = swapped && swapped.id ? document.getElementById(swapped.id) : null;
    panel = panel && (panel.closest("[data-panel]") || panel);
    if (!panel) return;
    var result = resultIn(panel);
    var heading = result.matches("h2, h3, h4") ? result : result.querySelector("h2, h3, h4");
    // an element with an id: a refresh that swaps the panel again finds it by that id
    var target = heading && heading.id ? heading : (result.id ? result : (heading || result));
    focusOn(target);
    held = target.id || null;
    heldUntil = Date.now() + 3000;
  }

  document.addEventListener("click", openTarget);
  document.addEventListener("htmx:beforeRequest", noteFocus);
  document.addEventListener("htmx:afterSettle", keepFocus);
  document.addEventListener("DOMContentLoaded", check);
  document.addEventListener("htmx:afterSwap", keepLogOpen);
  document.addEventListener("htmx:afterSettle", focusFetched);
  document.addEventListener("htmx:afterSettle", soon);
  document.addEventListener("htmx:load", soon);  // content swapped in by htmx.swap (live.js) too
  document.addEventListener("game-step", function (evt) {
    var seq = evt.detail && evt.detail.seq;
    if (seq !== undefined) setTimeout(function () { followStep(seq); }, 0);
  });
  document.addEventListener("animationend", function (evt) {
    if (evt.target.classList && evt.animationName === "turn-flash") evt.target.classList.remove("changed");
  });
})();
