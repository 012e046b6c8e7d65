/* Live game pages (architecture.md § Live sharing).
 *
 * - The page subscribes to its event stream through htmx's SSE extension (#live, _live.html).
 *   Each `step` event carries the newest step number and (but the first) the step panels
 *   rendered at it: the page puts them in place (takePushed). When it cannot use them, and the
 *   step is newer than what the panels show, the panels are re-fetched in one request
 *   (`panels?names=…`; the log only its new steps; the share panel only on a `links` event).
 *   The first event of every
 *   connection is the current step, so a page that was offline catches up on reconnect.
 * - A panel where the player is typing, or left unsent input, is not replaced under their
 *   fingers: it shows a "changed on another device" button, and refreshes by itself once
 *   they leave it with nothing unsent.
 * - No lost update: every htmx request that changes something carries `seen`, the step the
 *   page showed (also as the X-Game-Seen header). A 409 answer is shown in place, with what
 *   changed meanwhile, and the panels are refreshed.
 * - The top bar shows the connection: live / reconnecting / offline. After an error the
 *   stream is closed so the extension reconnects with back-off (0.5 s, 1 s, 2 s … 64 s) rather
 *   than the browser's fixed retry. If the stream's URL answers 404 (the game was deleted or
 *   the link replaced while the page missed the news), the page says so and stops retrying.
 */
(function () {
  "use strict";

  var live, indicator;
  var seen = 0;       // the step the page shows: sent as `seen`
  var known = 0;      // the newest step the stream announced
  var shown = 0;      // the step the panels were last refreshed to
  var failures = 0;   // stream errors since it was last open
  var connected = false;
  var refreshing = null;

  var probing = false; // asking the stream's URL whether the game is still there
  var OFFLINE_AFTER = 6;  // failed attempts (about 30 s with back-off) before "offline"

  var LABELS = {connecting: "Connecting…", live: "Live", reconnecting: "Reconnecting…",
                offline: "Offline", revoked: "Link replaced", deleted: "Game deleted", gone: "Game gone",
                trouble: "Not saved"};

  function setState(state) {
    indicator.dataset.state = state;
    indicator.textContent = LABELS[state];
    indicator.title = state === "live" ? "Changes from other devices appear here at once."
      : state === "revoked" ? "This link was replaced: ask the player for the new one."
      : state === "deleted" ? "This game was deleted."
      : state === "gone" ? "The game was deleted or this link was replaced: nothing more will arrive."
      : state === "trouble" ? "The server could not store your last change: its reason is shown where you tapped."
      : "Trying again by itself, waiting a little longer each time.";
  }

  function makeIndicator() {
    var shown = document.getElementById("live-status");  // the page's own (game_page.html)
    if (shown) return shown;
    var el = document.createElement("span");
    el.id = "live-status";
    el.className = "live-status";
    el.setAttribute("role", "status");
    var tools = document.querySelector(".topbar-tools") || document.body;
    tools.insertBefore(el, tools.firstChild);
    return el;
  }

  // --- panels ------------------------------------------------------------------------------

  function isDirty(field) {
    if (field.type === "hidden" || field.readOnly || field.disabled || field.type === "file") return false;
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") {
      var options = Array.prototype.slice.call(field.options);
      var hasDefault = options.some(function (o) { return o.defaultSelected; });
      return options.some(function (o, i) { return o.selected !== (hasDefault ? o.defaultSelected : i === 0); });
    }
    return field.value !== field.defaultValue;
  }

  function typingIn(panel) {
    var active = document.activeElement;
    return !!(active && panel.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName) && !active.readOnly);
  }

  function unsent(panel) {
    return Array.prototype.some.call(panel.querySelectorAll("input, textarea, select"), isDirty);
  }

  /* A panel showing a form that came back with a reason (409) is held until the player acts on
     it: the next swap of the panel replaces the element and so releases it. */
  function busy(panel) {
    return panel.hasAttribute("data-live-hold") || typingIn(panel) || unsent(panel);
  }

  /* A panel whose own request is on its way is not replaced by a push or a refresh: the answer
     (a 409 among them) is handled by the form that sent it, and a form taken out of the page
     meanwhile would lose it. The panel catches up when the request ends (`onBeforeRequest`). */
  function sending(panel) {
    return (parseInt(panel.dataset.liveSending, 10) || 0) > 0;
  }

  /* One request for all the panels to refresh (issue 11: a request per panel and step froze the
     server with a dozen pages open). The query carries what the player opened in each panel
     (data-query: older log pages, the bot picked next) and the newest step the log shows, so
     only newer steps come back for it. Plain fetch, not htmx.ajax: htmx queues requests per
     source element. */
  function panelsQuery(panels) {
    var params = new URLSearchParams();
    params.set("names", panels.map(function (p) { return p.dataset.panel; }).join(","));
    panels.forEach(function (panel) {
      new URLSearchParams(panel.dataset.query || "").forEach(function (v, k) { params.set(k, v); });
      var top = panel.dataset.panel === "log" && !panel.dataset.before && panel.querySelector(".log-step");
      if (top) params.set("after", top.dataset.seq);
    });
    return params.toString();
  }

  /* A log refreshed from step `data-log-from` on keeps the older steps this page shows. Their
     copies lose any `style` attribute: the pages carry none, and one left by an extension or the
     browser (`style=""`) would be an inline style the Content-Security-Policy refuses when the
     panel is swapped in (one console error per element and refresh). */
  function withoutStyle(node) {
    node.removeAttribute("style");
    node.querySelectorAll("[style]").forEach(function (el) { el.removeAttribute("style"); });
    return node;
  }

  function mergeLog(current, fresh) {
    var from = parseInt(fresh.dataset.logFrom, 10);
    if (isNaN(from)) return;
    var list = fresh.querySelector("ol.log");
    current.querySelectorAll("ol.log > li").forEach(function (li) {
      if (li.classList.contains("log-more") || parseInt(li.dataset.seq, 10) < from) list.appendChild(withoutStyle(li.cloneNode(true)));
    });
    fresh.removeAttribute("data-log-from");
  }

  function fetchPanels(panels, force) {
    var open = {};
    panels.forEach(function (panel) {
      open[panel.dataset.panel] = Array.prototype.map.call(panel.querySelectorAll("details[open][id]"),
                                                           function (d) { return d.id; });
    });
    return fetch(live.dataset.panels.replace(/\/$/, "") + "?" + panelsQuery(panels),
                 {headers: {"HX-Request": "true"}, credentials: "same-origin", cache: "no-store"})
      .then(function (response) {
        if (!response.ok) throw new Error("panels: " + response.status);
        var seq = parseInt(response.headers.get("X-Game-Seq"), 10);
        return response.text().then(function (html) { swapPanels(html, seq, force, open, null); });
      });
  }

  /* Put the panels of `html` (rendered at step `seq`) in place of the page's; `only`: those names. */
  function swapPanels(html, seq, force, open, only) {
    var holder = document.createElement("template");
    holder.innerHTML = html;
    Array.prototype.slice.call(holder.content.children).forEach(function (fresh) {  // a copy: each leaves it
      var name = fresh.dataset.panel;
      var current = name && document.querySelector('[data-panel="' + name + '"]');
      if (!current || (only && only.indexOf(name) < 0)) return;
      if (!force && sending(current)) return;
      if (!force && busy(current)) { markStale(current); return; }
      if (name === "log") mergeLog(current, fresh);
      swapPanel(current, fresh);
      if (!isNaN(seq)) seen = Math.max(seen, seq);
      (open[name] || []).forEach(function (id) { var d = document.getElementById(id); if (d) d.open = true; });
    });
  }

  /* The panel `fresh` (already parsed) in place of `current`: the panel's own swap (swap.js) when
     the page has it, htmx's outerHTML otherwise; the element is handed over, not its markup (no
     second parse). */
  function swapPanel(current, fresh) {
    var holder = document.createDocumentFragment();
    holder.appendChild(fresh);
    htmx.swap(current, holder, {swapStyle: window.htmxPanelSwap || "outerHTML", swapDelay: 0, settleDelay: 0},
              {contextElement: current});
  }

  /* The live push (issue 21): a `step` event carries the step panels as this link's pages show
     them. The page takes them instead of asking, unless one of its panels shows more than the
     push has (an older log page, the bot picked next: data-query) or its log is older than the
     pushed one starts (steps would go missing): then it asks, as before. A panel already at that
     step (this page's own command's answer) stays as it is. */
  function takePushed(seq, pushed) {
    if (refreshing || seq <= shown) return false;
    var panels = Array.prototype.filter.call(document.querySelectorAll("[data-panel]"), function (panel) {
      return panel.dataset.refresh !== "links";
    });
    var log = document.querySelector('[data-panel="log"] .log-step');
    var top = log ? parseInt(log.dataset.seq, 10) : NaN;
    var usable = panels.every(function (panel) {
      return !panel.dataset.query && !panel.dataset.before && (pushed.names || []).indexOf(panel.dataset.panel) >= 0;
    }) && (pushed.log_from === null || pushed.log_from === undefined || top >= pushed.log_from - 1);
    if (!usable) return false;
    var due = panels.filter(function (panel) { return !(parseInt(panel.dataset.seq, 10) >= seq); });
    if (!due.length) {  // this page's own command's answer brought them all: nothing to parse
      known = Math.max(known, seq);
      shown = Math.max(shown, seq);
      return true;
    }
    var open = {};
    due.forEach(function (panel) {
      open[panel.dataset.panel] = Array.prototype.map.call(panel.querySelectorAll("details[open][id]"),
                                                           function (d) { return d.id; });
    });
    var names = due.map(function (p) { return p.dataset.panel; });
    swapPanels(pushedHtml(pushed, names), seq, false, open, names);
    known = Math.max(known, seq);
    shown = Math.max(shown, seq);
    return true;
  }

  /* Only the panels `names` of a push: each one's own span of its html (`at`), so the page parses
     what it takes (most often the roster alone: the tap's answer brought the others). */
  function pushedHtml(pushed, names) {
    if (!pushed.at) return pushed.html;
    return names.map(function (name) {
      var span = pushed.at[pushed.names.indexOf(name)];
      return span ? pushed.html.slice(span[0], span[1]) : "";
    }).join("");
  }

  function refreshPanel(panel, force) {
    return fetchPanels([panel], force);
  }

  function markStale(panel) {
    panel.dataset.stale = "true";
    if (panel.querySelector(".live-stale")) return;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "btn live-stale";
    button.textContent = "Changed on another device: show it (drops what you typed here)";
    button.addEventListener("click", function () { refreshPanel(panel, true); });
    panel.insertBefore(button, panel.firstChild);
  }

  /* Re-fetch every step panel but `except` (those being typed in wait, unless forced), in one
     request. The share panel (links and their QR codes) does not change with a step: it follows
     the `links` event only. Resolves when done. */
  function refreshPanels(force, except) {
    if (refreshing) {
      return refreshing.then(function () { return refreshPanels(force, except); });
    }
    var goal = known;
    var failed = false;
    var due = [];
    document.querySelectorAll("[data-panel]").forEach(function (panel) {
      if (panel.dataset.panel === except || panel.dataset.refresh === "links") return;
      // a panel already showing the newest step (the answer to this page's own command) stays:
      // re-fetching it would only wipe what the player is doing there (an order being tried)
      if (!force && parseInt(panel.dataset.seq, 10) >= goal) return;
      if (!force && sending(panel)) return;
      if (!force && busy(panel)) {
        markStale(panel);
        return;
      }
      due.push(panel);
    });
    var job = due.length ? fetchPanels(due, force).catch(function () { failed = true; }) : Promise.resolve();
    refreshing = job.then(function () {
      refreshing = null;
      if (!failed && !except) shown = Math.max(shown, goal);
      if (known > shown && !failed) return refreshPanels(false);
    });
    return refreshing;
  }

  function catchUp(seq) {
    known = Math.max(known, seq);
    if (known > shown) refreshPanels(false);
  }

  /* Leaving a panel with nothing unsent lets a waiting refresh through. */
  function onFocusOut() {
    setTimeout(function () {
      document.querySelectorAll("[data-panel][data-stale]").forEach(function (panel) {
        if (!busy(panel)) refreshPanel(panel);
      });
    }, 0);
  }

  // --- no lost update ------------------------------------------------------------------------

  function onConfigRequest(evt) {
    var verb = (evt.detail.verb || "get").toLowerCase();
    if (verb === "get") return;
    var data = evt.detail.formData;
    var has = data ? data.has("seen") : evt.detail.parameters.seen !== undefined;
    if (!has) evt.detail.parameters.seen = String(seen);
    // the form's own `seen` (rendered with it) wins: it is the step its author looked at
    evt.detail.headers["X-Game-Seen"] = String(has ? (data ? data.get("seen") : evt.detail.parameters.seen) : seen);
  }

  /* Counted on the xhr itself (loadend), not on htmx:afterRequest: that event is fired on the
     element that sent the request, which its own answer may have taken out of the page. */
  function onBeforeRequest(evt) {
    var elt = evt.detail.elt;
    var panel = elt && elt.closest ? elt.closest("[data-panel]") : null;
    var xhr = evt.detail.xhr;
    if (!panel || !xhr) return;
    panel.dataset.liveSending = String((parseInt(panel.dataset.liveSending, 10) || 0) + 1);
    xhr.addEventListener("loadend", function () {
      setTimeout(function () {
        var left = (parseInt(panel.dataset.liveSending, 10) || 1) - 1;
        if (left > 0) panel.dataset.liveSending = String(left);
        else delete panel.dataset.liveSending;
        if (!left && document.contains(panel) && !(parseInt(panel.dataset.seq, 10) >= known)) refreshPanels(false);
      }, 0);
    });
  }

  function onAfterRequest(evt) {
    var xhr = evt.detail.xhr;
    var header = xhr && xhr.getResponseHeader("X-Game-Seq");
    if (header && xhr.status < 400) seen = Math.max(seen, parseInt(header, 10) || 0);
    if (xhr && xhr.status > 0 && xhr.status < 400 && indicator && indicator.dataset.state === "trouble") {
      setState(connected ? "live" : "reconnecting");  // stored again: the warning is over
    }
  }

  function reasonOf(xhr) {
    var type = xhr.getResponseHeader("Content-Type") || "";
    try {
      if (type.indexOf("json") >= 0) return JSON.parse(xhr.responseText).detail;
      var holder = document.createElement("template");
      holder.innerHTML = xhr.responseText;
      return holder.content.textContent.trim();
    } catch (e) {
      return "The game moved on since you looked.";
    }
  }

  /* A 409 comes in two shapes. A route that lets games.Conflict through answers a short reason
     with `HX-Reswap: none`: it is shown in place and every panel is refreshed. A route that
     answers its own form with the reason (the roster editor) is swapped as usual; the other
     panels are refreshed and what changed meanwhile is added next to it. */
  function onBeforeSwap(evt) {
    var xhr = evt.detail.xhr;
    if (xhr.status >= 500) return showTrouble(evt);
    if (xhr.status !== 409) return;
    var sentSeen = parseInt((evt.detail.requestConfig.headers || {})["X-Game-Seen"], 10);
    var since = isNaN(sentSeen) ? seen : sentSeen;
    var source = evt.detail.requestConfig.elt;
    var panel = [evt.detail.target, source].map(function (el) {
      return el && el.closest ? el.closest("[data-panel]") : null;
    }).filter(Boolean)[0];
    var where = panel ? panel.dataset.panel : null;
    known = Math.max(known, parseInt(xhr.getResponseHeader("X-Game-Seq"), 10) || 0);
    if (xhr.getResponseHeader("HX-Reswap") === "none" || !evt.detail.shouldSwap) {
      evt.detail.shouldSwap = false;
      evt.detail.isError = false;
      var message = reasonOf(xhr);
      refreshPanels(true).then(function () { showConflict(message, since, where); });
    } else {
      setTimeout(function () {
        var held = where && document.querySelector('[data-panel="' + where + '"]');
        if (held) held.setAttribute("data-live-hold", "");
        refreshPanels(true, where).then(function () { showConflict(null, since, where); });
      }, 0);
    }
  }

  /* A tap the server could not store (503: busy, the disk full, the database unreachable, with
     its reason; or any other server error): the reason shows where the tap was, and the badge
     turns to its warning state until a later request is stored. Before, a 500 showed nothing
     at all while the badge stayed "Live". One notice at a time, gone after a while. */
  function showTrouble(evt) {
    var xhr = evt.detail.xhr;
    var message = xhr.status === 503 ? reasonOf(xhr)
      : "The server could not do that (error " + xhr.status + "); it may not have been saved. Try again.";
    var panel = [evt.detail.requestConfig && evt.detail.requestConfig.elt, evt.detail.target].map(function (el) {
      return el && el.closest ? el.closest("[data-panel]") : null;
    }).filter(Boolean)[0];
    var box = document.getElementById("live-busy") || document.createElement("p");
    box.id = "live-busy";
    box.className = "live-conflict";
    box.setAttribute("role", "alert");
    box.textContent = message || "The server is busy; nothing was changed, try again.";
    if (panel && document.contains(panel)) panel.insertBefore(box, panel.firstChild);
    else document.getElementById("live-notice").appendChild(box);
    clearTimeout(showTrouble.timer);
    showTrouble.timer = setTimeout(function () { box.remove(); }, 15000);
    if (indicator) setState("trouble");
  }

  function showConflict(message, since, panelName) {
    var box = document.createElement("div");
    box.className = "live-conflict";
    box.setAttribute("role", "alert");
    if (message) {
      var text = document.createElement("p");
      text.textContent = message;
      box.appendChild(text);
    }
    var holder = panelName && document.querySelector('[data-panel="' + panelName + '"]');
    if (holder) holder.insertBefore(box, holder.firstChild);
    else document.getElementById("live-notice").appendChild(box);
    fetch(live.dataset.changes + "?since=" + since, {headers: {"HX-Request": "true"}})
      .then(function (r) { return r.ok ? r.text() : ""; })
      .then(function (html) {
        if (!html) return;
        var t = document.createElement("template");
        t.innerHTML = html;  // server-rendered, autoescaped
        box.appendChild(t.content);
      });
  }

  // --- the stream ----------------------------------------------------------------------------

  function bindLive() {
    live.addEventListener("htmx:sseOpen", onOpen);
    live.addEventListener("htmx:sseError", onError);
    live.addEventListener("sse:step", function (evt) {
      var data = JSON.parse(evt.detail.data);
      if (data.panels && takePushed(data.seq, data.panels)) return;
      catchUp(data.seq);
    });
    live.addEventListener("sse:links", function () {
      document.querySelectorAll('[data-panel="share"]').forEach(refreshPanel);
    });
    live.addEventListener("sse:renamed", refreshTitle);
    // sse-close="revoked" ends the stream for good: no reconnecting to a link or game that is gone
    live.addEventListener("sse:revoked", function (evt) {
      var deleted = false;
      try { deleted = JSON.parse(evt.detail.data).reason === "deleted"; } catch (e) { /* old server */ }
      setState(deleted ? "deleted" : "revoked");
      var box = document.createElement("p");
      box.className = "live-conflict";
      box.setAttribute("role", "alert");
      box.textContent = deleted ? "This game was deleted. Nothing more can be played or watched here."
        : "This link was replaced and no longer works. Ask the player for the new one.";
      document.getElementById("live-notice").appendChild(box);
    });
  }

  /* Renaming is not a step: the title (and the tab's name) follow on their own event. A rename
     being typed here is left alone. */
  function refreshTitle() {
    var title = document.getElementById("game-title");
    if (!title || busy(title)) return;
    fetch(live.dataset.panels + "title", {headers: {"HX-Request": "true"}, credentials: "same-origin", cache: "no-store"})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        var current = document.getElementById("game-title");
        if (!html || !current || busy(current)) return;
        htmx.swap(current, html, {swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0});
        var h1 = document.querySelector("#game-title h1");
        if (h1) document.title = h1.textContent + " · Potham 2038";
      });
  }

  function ended() {
    var state = indicator.dataset.state;
    return state === "revoked" || state === "deleted" || state === "gone";
  }

  /* An EventSource cannot see why it failed. After an error, ask the stream's URL once: a 404
     means the game was deleted or the link replaced while this page missed the `revoked` event
     (asleep, offline, server restarted). Then say so and stop: no back-off against a door that
     will never open. Any other answer (network down, 5xx) leaves the back-off running. */
  function probeGone(source) {
    if (probing || ended()) return;
    probing = true;
    var control = window.AbortController ? new AbortController() : null;
    fetch(live.getAttribute("sse-connect") || "", {credentials: "same-origin", cache: "no-store",
                                                   signal: control ? control.signal : undefined})
      .then(function (response) {
        if (control) control.abort();  // a 200 is a live stream: only its status was wanted
        if (response.status === 404) gone(source);
      })
      .catch(function () { /* offline: the back-off goes on */ })
      .then(function () { probing = false; });
  }

  function gone(source) {
    if (ended()) return;
    setState("gone");
    live.removeAttribute("sse-connect");  // the extension's pending retry finds nothing to reopen
    if (source) source.close();
    var box = document.createElement("p");
    box.className = "live-conflict";
    box.id = "live-gone";
    box.setAttribute("role", "alert");
    box.textContent = "This game is gone or its link was replaced. Nothing more will arrive on this page: "
      + "open the game again from your saved games, or ask the player for the new link. ";
    var home = document.createElement("a");
    home.href = "/";
    home.textContent = "Saved games";
    box.appendChild(home);
    document.getElementById("live-notice").appendChild(box);
  }

  function onOpen() {
    failures = 0;
    connected = true;
    setState("live");
  }

  function onError(evt) {
    var source = evt.detail && evt.detail.source;
    if (ended()) {
      if (source) source.close();
      return;
    }
    failures += 1;
    connected = false;
    setState(navigator.onLine === false || failures >= OFFLINE_AFTER ? "offline" : "reconnecting");
    if (navigator.onLine !== false) probeGone(source);
    // Closed, the extension reconnects with its back-off instead of the browser's fixed retry.
    if (source && source.readyState !== EventSource.CLOSED) source.close();
  }

  function copy(button) {
    var input = document.getElementById(button.dataset.copy);
    if (!input) return;
    var done = function () {
      var label = button.textContent;
      button.textContent = "Copied";
      setTimeout(function () { button.textContent = label; }, 1500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () { input.select(); });
    } else {  // plain http on the local network: the old way still works
      input.select();
      if (document.execCommand("copy")) done();
    }
  }

  function init() {
    document.addEventListener("click", function (evt) {
      var button = evt.target.closest && evt.target.closest("[data-copy]");
      if (button) copy(button);
    });
    live = document.getElementById("live");
    if (!live) return;
    seen = known = shown = parseInt(live.dataset.seq, 10) || 0;
    indicator = makeIndicator();
    setState("connecting");
    bindLive();
    document.body.addEventListener("htmx:configRequest", onConfigRequest);
    document.body.addEventListener("htmx:beforeRequest", onBeforeRequest);
    document.body.addEventListener("htmx:afterRequest", onAfterRequest);
    document.body.addEventListener("htmx:beforeSwap", onBeforeSwap);
    document.addEventListener("focusout", onFocusOut);
    window.addEventListener("offline", function () { if (!ended()) setState("offline"); });
    window.addEventListener("online", function () {
      if (indicator.dataset.state === "offline") setState(connected ? "live" : "reconnecting");
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
