// Small glue around htmx; no inline scripts (the Content-Security-Policy forbids them).
(function () {
  "use strict";
  function showMessage(text) {
    var box = document.getElementById("messages");
    if (!box) { return; }
    var p = document.createElement("p");
    p.className = "flash error";
    p.textContent = text;
    box.replaceChildren(p);
  }
  document.addEventListener("htmx:sendError", function () {
    showMessage("The server could not be reached. Check the connection; what you typed is still here.");
  });
  document.addEventListener("htmx:timeout", function () {
    showMessage("The server took too long to answer. Try again; what you typed is still here.");
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
