/* Rule badges explain themselves (templating.rule_badge): a tap, click, Enter or Space on a badge
   shows its summary right after it, without leaving the page; again (or Escape) hides it. The
   summary travels in the badge (data-summary), so it works offline. A modified click (new tab,
   new window) still opens /rules#ID, as the player asked. Delegated: badges swapped in by htmx work. */
(function () {
  "use strict";
  var count = 0;

  function tipOf(badge) {
    var id = badge.getAttribute("aria-controls");
    return id ? document.getElementById(id) : null;
  }

  function show(badge) {
    var tip = tipOf(badge);
    if (!tip) {
      tip = document.createElement("span");
      tip.id = "rule-tip-" + (++count);
      tip.className = "rule-tip";
      tip.setAttribute("role", "note");
      var text = document.createElement("span");
      text.textContent = badge.dataset.summary + " ";
      var more = document.createElement("a");
      more.href = badge.getAttribute("href");
      more.textContent = "All rules";
      tip.appendChild(text);
      tip.appendChild(more);
      badge.insertAdjacentElement("afterend", tip);
      badge.setAttribute("aria-controls", tip.id);
    }
    tip.hidden = false;
    badge.setAttribute("aria-expanded", "true");
  }

  function hide(badge) {
    var tip = tipOf(badge);
    if (tip) tip.hidden = true;
    badge.setAttribute("aria-expanded", "false");
  }

  document.addEventListener("click", function (evt) {
    var badge = evt.target.closest && evt.target.closest("a.rule[data-summary]");
    if (!badge || evt.button !== 0 || evt.ctrlKey || evt.metaKey || evt.shiftKey || evt.altKey) return;
    evt.preventDefault();
    if (badge.getAttribute("aria-expanded") === "true") hide(badge); else show(badge);
  });
  document.addEventListener("keydown", function (evt) {
    var badge = evt.target.closest && evt.target.closest("a.rule[data-summary]");
    if (!badge) return;
    if (evt.key === " ") { evt.preventDefault(); badge.click(); }  // a disclosure answers Space too
    else if (evt.key === "Escape") hide(badge);
  });
})();
