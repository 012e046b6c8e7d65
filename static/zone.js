// The zone page's small helpers. Everything works without this file (the server fills what a
// pick leaves blank); it adds two things:
// 1. a pick fills the fields the player sees, so what is on screen is what is rolled: the
//    attack form's "Weapon (from the sheet)" sets the Character, the skill, the base, skill and
//    gear dice and the damage; the NPC form's "Starting sheet" sets the fields of that sheet
//    (data-fields on each option: {"field id": "value"});
// 2. after a tap on the round panel, the step's result (the message and "Last step") is scrolled
//    into view if it is not.
(function () {
  "use strict";

  function fill(select) {
    var option = select.options[select.selectedIndex];
    var fields = option && option.getAttribute("data-fields");
    if (!fields) return;
    var values = JSON.parse(fields);
    Object.keys(values).forEach(function (id) {
      var el = document.getElementById(id);
      if (!el) return;
      if (el.type === "checkbox") el.checked = values[id] === "true";
      else el.value = values[id];
    });
  }

  document.addEventListener("change", function (evt) {
    var el = evt.target;
    if (el && el.matches && el.matches("select[data-fills]")) fill(el);
  });

  document.addEventListener("htmx:afterSettle", function (evt) {
    var config = evt.detail && evt.detail.requestConfig;
    var panel = evt.detail && evt.detail.target;
    if (!config || config.verb !== "post" || !panel || panel.id !== "panel-turn") return;
    var result = document.getElementById("turn-message");
    if (!result) return;
    var box = result.getBoundingClientRect();
    var news = document.getElementById("turn-news");
    var bottom = news ? news.getBoundingClientRect().bottom : box.bottom;
    if (box.top < 0 || bottom > window.innerHeight) result.scrollIntoView({block: "start"});
  });
})();
