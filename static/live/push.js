// Live seat pages: the server's stream (data-stream on #live) says the table's new version the
// moment it is committed; when it differs from the screen's, the page asks for its screen at once
// with its ordinary poll. The stream carries only a version: what a seat may see comes from the
// poll, as ever.
// The poll runs every second unless the stream has shown it is alive within ALIVE_MS (its
// server says the mark again every 5 s while it is told of changes); then every SLOW_POLL_MS,
// so nothing waits on the stream alone, and a silent stream brings back the 1 s poll.
// The browser opens a dropped stream again by itself; a stream refused (a proxy's 502 while a
// server restarts) is opened again here after a pause, and a phone that wakes asks at once.
(function () {
  "use strict";
  var REOPEN_MS = [1000, 2000, 5000, 10000];
  var ALIVE_MS = 12000;
  var SLOW_POLL_MS = 5000;
  var source = null;
  var failures = 0;
  var pushed = null;
  var heardAt = 0;
  var polledAt = 0;

  // whether the seat's "every 1s" poll (templates/live/live_seat.html) goes out this second
  function pollDue() {
    var now = Date.now();
    var alive = source !== null && source.readyState === 1 && now - heardAt < ALIVE_MS;
    return !alive || now - polledAt >= SLOW_POLL_MS - 500;
  }

  function live() { return document.getElementById("live"); }
  function polling(element) { return element && element.hasAttribute("hx-get"); }

  function ask(mark) {
    var element = live();
    if (!polling(element)) { close(); return; }
    if (mark !== undefined) {
      if (mark === element.getAttribute("data-mark")) { return; }
      pushed = mark;
    }
    window.htmx.trigger(element, "live-changed");
  }
  function close() {
    if (source) { source.close(); source = null; }
  }
  function open() {
    var element = live();
    if (source || !window.EventSource || !polling(element) || !element.getAttribute("data-stream")) { return; }
    source = new EventSource(element.getAttribute("data-stream"));
    source.onmessage = function (event) { failures = 0; heardAt = Date.now(); ask(event.data); };
    source.onerror = function () {
      heardAt = 0;
      if (source && source.readyState === EventSource.CLOSED) {
        source = null;
        setTimeout(open, REOPEN_MS[Math.min(failures, REOPEN_MS.length - 1)]);
        failures += 1;
      }
    };
  }
  // The poll a push prompted says so: the server then reads the version from the database. A
  // timed poll is skipped while the stream is alive and the last poll recent.
  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    if (detail && detail.elt && detail.elt.id === "live" && detail.verb === "get") {
      var timed = !detail.triggeringEvent || detail.triggeringEvent.type !== "live-changed";
      if (timed && !pollDue()) { event.preventDefault(); return; }
      polledAt = Date.now();
      if (pushed !== null) { detail.parameters.pushed = pushed; }
    }
  });
  document.addEventListener("htmx:afterSettle", function () {
    var element = live();
    if (!polling(element)) { close(); return; }
    if (pushed !== null && element.getAttribute("data-mark") === pushed) { pushed = null; }
  });
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { return; }
    ask();
    open();
  });
  document.addEventListener("DOMContentLoaded", open);
})();
