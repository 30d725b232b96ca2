// Live seat pages: the page polls every second (hx-trigger="every 1s" on #live) and
// htmx keeps polling after a failure, so the next answered poll resumes the game by itself.
// This only says so: after MISSES_SHOWN polls in a row without an answer, or STALL_MS without
// any answered poll (a request left hanging by a Wi-Fi that carries nothing), "Reconnecting…"
// shows until any request is answered again, or the game's final screen (which polls no more)
// is shown. A poll waits POLL_TIMEOUT_MS at most, so a hung one
// does not hold back the next.
(function () {
  "use strict";
  var MISSES_SHOWN = 3;
  var STALL_MS = 5000;
  var POLL_TIMEOUT_MS = 4000;
  var misses = 0;
  var lastAnswer = Date.now();
  // The notice in the page's language, from the page's strings block (templates/live/layout.html);
  // English when the page has none.
  var TEXT = (function () {
    var english = "Reconnecting… the game goes on as soon as the connection returns.";
    var block = document.getElementById("page-strings");
    try { return (block && JSON.parse(block.textContent)[english]) || english; } catch (ignored) { return english; }
  })();

  function isPoll(detail) {
    var source = detail && detail.elt;
    var verb = detail && detail.requestConfig ? detail.requestConfig.verb : detail && detail.verb;
    return source && source.id === "live" && source.hasAttribute("hx-get") && verb === "get";
  }
  function notice(show) {
    var box = document.getElementById("messages");
    var note = document.getElementById("reconnecting");
    if (show && !note && box) {
      note = document.createElement("p");
      note.id = "reconnecting";
      note.className = "flash warning";
      note.textContent = TEXT;
      box.appendChild(note);
    } else if (!show && note) {
      note.remove();
    }
  }
  document.addEventListener("htmx:configRequest", function (event) {
    if (isPoll(event.detail)) { event.detail.timeout = POLL_TIMEOUT_MS; }
  });
  // A missed poll is said by the note below, not by the page's general "could not be reached"
  // (organizer.js), which would stay on the screen after the polls resume.
  function quiet(event) {
    if (isPoll(event.detail)) { event.stopPropagation(); }
  }
  document.addEventListener("htmx:sendError", quiet, true);
  document.addEventListener("htmx:timeout", quiet, true);
  // Any answer (a poll's, a move's, a tick's) says the connection is back.
  function answered() {
    misses = 0;
    lastAnswer = Date.now();
    notice(false);
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail;
    if (!detail) { return; }
    var status = detail.xhr ? detail.xhr.status : 0;
    if (status > 0 && status < 500) { answered(); return; }
    if (detail.elt && detail.elt.id === "live") {
      misses += 1;
      if (misses >= MISSES_SHOWN) { notice(true); }
    }
  });
  // A new screen swapped in: its request's element may have left the page with the old screen,
  // so its afterRequest reaches no listener here.
  document.addEventListener("htmx:afterSettle", answered);
  setInterval(function () {
    var live = document.getElementById("live");
    // A finished game polls no more: nothing to wait for, and nothing to say.
    if (!live || !live.hasAttribute("hx-get")) { answered(); return; }
    if (document.hidden) { lastAnswer = Date.now(); return; }
    if (Date.now() - lastAnswer > STALL_MS) { notice(true); }
  }, 1000);
})();
