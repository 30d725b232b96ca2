// A player's own page: the part that depends on the round, the table and the result (the status,
// the report form, confirming, disputing, check-in) is one region its poll replaces as a whole.
// A new region waits while the player is busy with a form in it: a field has the focus, holds
// what was typed and not sent, or shows a refused report with what was typed (data-unsent). The
// next poll brings it again, as its URL still asks "changed since" the region shown.
(function () {
  "use strict";
  function typedInto(field) {
    if (field.type === "checkbox" || field.type === "radio") { return field.checked !== field.defaultChecked; }
    if (field.tagName === "SELECT") {
      for (var i = 0; i < field.options.length; i += 1) {
        if (field.options[i].selected !== field.options[i].defaultSelected) { return true; }
      }
      return false;
    }
    return field.value !== field.defaultValue;
  }
  function busy(region) {
    if (region.getAttribute("data-unsent") === "true") { return true; }
    var active = document.activeElement;
    if (active && region.contains(active) && active.matches("input, textarea, select")) { return true; }
    var fields = region.querySelectorAll("input:not([type=hidden]), textarea, select");
    for (var i = 0; i < fields.length; i += 1) {
      if (typedInto(fields[i])) { return true; }
    }
    return false;
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    var target = detail.target;
    var config = detail.requestConfig || {};
    if (target && target.id === "player-status" && config.verb === "get" && busy(target)) {
      detail.shouldSwap = false;
    }
  });
})();
