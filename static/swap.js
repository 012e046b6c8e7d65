/* A panel's own swap (issue 17, issue 21): a whole step panel ([data-panel]) replaced by its new
 * copy, as htmx's outerHTML does, without htmx's two costs per element of the old copy.
 *
 * htmx's outerHTML fires two cleanup events (htmx:beforeCleanupElement and its kebab-case twin)
 * on every element it removes, each looking up the extensions of every ancestor, and matches every
 * element with an id in the new copy against the old one to carry `class` over until the settle.
 * The turn panel holds about 1,000 elements: that was about half of a tap's swap in Chromium.
 * Neither is needed for a panel: nothing inside a panel listens outside it (its triggers are its
 * own elements' or `from:closest` ones inside the same panel; no polling, no stream, no observer:
 * tests/unit/test_panel_swap.py checks the templates for it), so the old copy goes with all it
 * holds, and the CSS has no transition to carry a class over for.
 *
 * Everything else is htmx's own: the new copy is processed and `htmx:load`ed, `htmx:afterSwap`
 * and `htmx:afterSettle` fire on it (table.js, turn.js), the focused field is found again by its id.
 * Taken where the answer replaces a whole panel (hx-swap outerHTML, or HX-Reswap) and by live.js.
 */
(function () {
  "use strict";
  if (!window.htmx) return;
  window.htmxPanelSwap = "panel";  // live.js swaps with it (and with outerHTML without this file)

  htmx.defineExtension("panel-swap", {
    isInlineSwap: function (style) { return style === "panel"; },
    handleSwap: function (style, target, fragment, settleInfo) {
      if (style !== "panel" || !target.parentNode) return false;
      var added = Array.prototype.filter.call(fragment.childNodes, function (n) { return n.nodeType === 1; });
      added.forEach(function (el) { el.classList.add(htmx.config.addedClass); });
      target.parentNode.insertBefore(fragment, target);
      target.remove();
      settleInfo.elts = settleInfo.elts.filter(function (el) { return el !== target; }).concat(added);
      return added;  // htmx processes each and fires htmx:load on it
    }
  });

  /* An answer that replaces a whole panel takes the panel's swap: its swap is outerHTML (the
     HX-Reswap header, or the hx-swap the request's element has or inherits) and its target is
     a panel. Any modifiers (show:, scroll:) stay as they were. */
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var detail = evt.detail;
    var target = detail.target;
    if (!detail.shouldSwap || !target || !target.hasAttribute || !target.hasAttribute("data-panel")) return;
    var elt = detail.requestConfig && detail.requestConfig.elt;
    // the extension is found from the request's element up (hx-ext on <body>): it must be in the page
    if (!elt || !elt.isConnected) return;
    var holder = elt.closest("[hx-swap],[data-hx-swap]");
    var swap = detail.swapOverride ||
      (holder ? holder.getAttribute("hx-swap") || holder.getAttribute("data-hx-swap") : "");
    if (/^outerHTML(\s|$)/.test(swap)) detail.swapOverride = "panel" + swap.slice("outerHTML".length);
  });
})();
