// Pages that follow changes (a live seat, the public page, a player's page, the live overview):
// the element with data-stream names the server's stream, which says the page's mark the moment
// it changes; the page then asks for its content at once with its ordinary poll (its hx-trigger
// lists the "pushed" event). The stream carries only a mark: what anyone sees comes from the
// poll, as ever.
// On that element (its poll replaces it with one of the same id):
//   data-stream     the stream's address (absent where the server streams nothing)
//   data-mark       the mark of what it shows; without it, the stream's first mark is asked for
//   data-poll       the period of its timed poll (hx-trigger "every Ns"), in seconds
//   data-slow-poll  while the stream is alive, the timed poll goes out only this often (seconds)
// The stream is alive while its server says the mark again within ALIVE_MS (it repeats it every
// 5 s while it is told of changes); a silent stream brings back the timed poll's own pace, so
// nothing waits on the stream alone. The browser opens a dropped stream again by itself; a stream
// refused (a proxy's 502 while a server restarts) is opened again here after a pause, and a phone
// that wakes asks at once.
(function () {
  "use strict";
  var REOPEN_MS = [1000, 2000, 5000, 10000];
  var ALIVE_MS = 12000;
  var id = null;
  var source = null;
  var failures = 0;
  var pushed = null;   // the mark a poll was prompted for, until a poll carrying it is answered
  var settled = null;  // the last mark a poll carrying it was answered for
  var heardAt = 0;
  var polledAt = 0;

  function followed() { return id === null ? null : document.getElementById(id); }
  function polling(element) { return element && element.hasAttribute("hx-get"); }
  function ms(element, name) {
    var value = parseFloat(element.getAttribute(name));
    return isNaN(value) ? 0 : value * 1000;
  }

  // whether the element's timed poll goes out now
  function pollDue(element) {
    var slow = ms(element, "data-slow-poll");
    var now = Date.now();
    var alive = source !== null && source.readyState === 1 && now - heardAt < ALIVE_MS;
    return !alive || !slow || now - polledAt >= slow - ms(element, "data-poll") / 2;
  }

  function ask(mark) {
    var element = followed();
    if (!polling(element)) { close(); return; }
    if (mark !== undefined) {
      if (mark === element.getAttribute("data-mark") || mark === settled) { return; }
      pushed = mark;
    }
    window.htmx.trigger(element, "pushed");
  }
  function close() {
    if (source) { source.close(); source = null; }
  }
  function open() {
    if (id === null) {
      var found = document.querySelector("[data-stream][id]");
      if (found) { id = found.id; }
    }
    var element = followed();
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
  function ours(detail) { return detail && detail.elt && id !== null && detail.elt.id === id; }

  // The poll a push prompted says which mark (a live seat's server then reads it from the
  // database); a timed poll is skipped while the stream is alive and the last poll recent.
  var carried = null;
  var swapped = false;
  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    if (!ours(detail) || detail.verb !== "get") { return; }
    var timed = !detail.triggeringEvent || detail.triggeringEvent.type !== "pushed";
    if (timed && !pollDue(detail.elt)) { event.preventDefault(); return; }
    polledAt = Date.now();
    carried = pushed;
    swapped = false;
    if (pushed !== null) { detail.parameters.pushed = pushed; }
  });
  // A page may hold a new region back (a player's page while a form in it is being filled in):
  // its mark is asked for again until it shows
  document.addEventListener("htmx:afterSwap", function (event) {
    if (ours(event.detail)) { swapped = true; }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail;
    if (!ours(detail) || carried === null || !detail.xhr) { return; }
    if (detail.xhr.status === 204 || (detail.xhr.status === 200 && swapped)) {
      settled = carried;
      if (pushed === carried) { pushed = null; }
    }
    carried = null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (id !== null && !polling(followed())) { close(); }
  });
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { return; }
    ask();
    open();
  });
  document.addEventListener("DOMContentLoaded", open);
})();
