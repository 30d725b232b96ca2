// The new-event form offers the browser's own time zone: an empty time-zone field
// marked data-browser-zone is filled from Intl; the organizer may type another one.
(function () {
  "use strict";
  function fill() {
    document.querySelectorAll("input[data-browser-zone]").forEach(function (input) {
      if (input.value) { return; }
      var zone = "";
      try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }
      input.value = zone || "UTC";
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", fill); } else { fill(); }
  document.addEventListener("htmx:afterSettle", fill);
})();
