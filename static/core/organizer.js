// Small glue around htmx; no inline scripts (the Content-Security-Policy forbids them).
(function () {
  "use strict";
  // What the scripts say, in the page's language: a JSON block the page renders (base.html).
  var strings = null;
  function t(english) {
    if (strings === null) {
      var block = document.getElementById("page-strings");
      try { strings = block ? JSON.parse(block.textContent) : {}; } catch (ignored) { strings = {}; }
    }
    return typeof strings[english] === "string" ? strings[english] : english;
  }
  function showMessage(text) {
    var box = document.getElementById("messages");
    if (!box) { return; }
    var p = document.createElement("p");
    p.className = "flash error";
    p.textContent = text;
    box.replaceChildren(p);
  }
  document.addEventListener("htmx:sendError", function () {
    showMessage(t("The server could not be reached. Check the connection; what you typed is still here."));
  });
  document.addEventListener("htmx:timeout", function () {
    showMessage(t("The server took too long to answer. Try again; what you typed is still here."));
  });
  // Buttons that ask first: data-confirm="Question?"
  document.addEventListener("htmx:confirm", function (event) {
    var source = event.detail.elt;
    var question = source && source.getAttribute("data-confirm");
    if (question && !window.confirm(question)) { event.preventDefault(); }
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form.getAttribute && form.getAttribute("data-confirm");
    if (question && !form.hasAttribute("hx-post") && !window.confirm(question)) { event.preventDefault(); }
  });
})();
// Scorepad: add up each seat's column as the numbers are typed (the server adds up again).
(function () {
  "use strict";
  function addUp(root) {
    var totals = {};
    root.querySelectorAll("input[data-sum]").forEach(function (input) {
      var seat = input.getAttribute("data-sum");
      var value = parseInt(input.value, 10);
      totals[seat] = (totals[seat] || 0) + (isNaN(value) ? 0 : value);
    });
    root.querySelectorAll("output[data-total]").forEach(function (out) {
      out.textContent = String(totals[out.getAttribute("data-total")] || 0);
    });
  }
  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("input[data-sum]")) { addUp(document); }
  });
  document.addEventListener("DOMContentLoaded", function () { addUp(document); });
  document.addEventListener("htmx:afterSettle", function () { addUp(document); });
})();
// Projector round clock: counts down every second between the server's refreshes.
(function () {
  "use strict";
  function tick() {
    document.querySelectorAll(".clock[data-deadline]").forEach(function (clock) {
      var left = Math.round((Date.parse(clock.getAttribute("data-deadline")) - Date.now()) / 1000);
      var shown = Math.max(0, left);
      clock.textContent = Math.floor(shown / 60) + ":" + String(shown % 60).padStart(2, "0");
      clock.classList.toggle("over", left <= 0);
    });
  }
  setInterval(tick, 1000);
})();
// The event's sub-navigation scrolls sideways on a phone: bring the current page's tab into view.
(function () {
  "use strict";
  function showCurrent() {
    var current = document.querySelector(".event-nav [aria-current=page]");
    var row = current && current.closest(".event-nav");
    if (!row || row.scrollWidth <= row.clientWidth) { return; }
    row.scrollLeft = current.offsetLeft - (row.clientWidth - current.offsetWidth) / 2;  // the row is positioned (organizer.css)
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", showCurrent); } else { showCurrent(); }
})();
// Live seat: the 1-second poll must not take a half-done turn away. The chosen hand card is kept
// (sessionStorage, per seat page) and put back after each swap while the situation (data-stamp)
// is the same; a poll's new screen waits while a finger is on the screen (the next poll brings
// it again, as its URL still asks "changed since" the version shown).
(function () {
  "use strict";
  var pressed = false;
  var releaseTimer = null;
  function key() { return "arboretum-live-card:" + window.location.pathname; }
  function live() { return document.getElementById("live"); }
  function saved() {
    try { return JSON.parse(window.sessionStorage.getItem(key()) || "null"); } catch (e) { return null; }
  }
  function remember(input) {
    var box = live();
    if (!box) { return; }
    try {
      window.sessionStorage.setItem(key(), JSON.stringify({ stamp: box.getAttribute("data-stamp"), card: input.value }));
    } catch (e) { /* private mode: the server still keeps the card the poll sends */ }
  }
  function restore() {
    var box = live();
    var choice = saved();
    if (!box || !choice || choice.stamp !== box.getAttribute("data-stamp")) { return; }
    box.querySelectorAll("input[name=card]").forEach(function (input) {
      if (input.value === choice.card && !input.disabled) { input.checked = true; }
    });
  }
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target.matches && target.matches("#live input[name=card]")) { remember(target); }
  });
  document.addEventListener("pointerdown", function (event) {
    if (event.target.closest && event.target.closest("#live")) {
      pressed = true;
      if (releaseTimer) { window.clearTimeout(releaseTimer); }
    }
  });
  function release() {
    if (releaseTimer) { window.clearTimeout(releaseTimer); }
    releaseTimer = window.setTimeout(function () { pressed = false; }, 350);
  }
  document.addEventListener("pointerup", release);
  document.addEventListener("pointercancel", release);
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    var config = detail.requestConfig || {};
    var isPoll = config.verb === "get" && detail.target && detail.target.id === "live";
    if (isPoll && pressed) { detail.shouldSwap = false; }
  });
  document.addEventListener("htmx:afterSettle", restore);
  document.addEventListener("DOMContentLoaded", restore);
})();
