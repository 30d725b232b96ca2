// A table tablet without a connection, the pages' half (the other is the service
// worker, static/offline/sw.js, served as /sw.js):
// - a result saved while the network is down is kept on the device (IndexedDB) with the version
//   of the result its form was made from, shown as "not sent yet" (a count in the top bar, a
//   list under it, a note on the table's page), and sent when the connection returns;
// - the server applies a form's version once (services/results.py: save_result compares it
//   under the table's lock), so a resend cannot store a result twice; when the table changed
//   meanwhile the server refuses (409) and the judge chooses here: send theirs over it anyway,
//   or drop it; nothing is overwritten without that choice;
// - the round's and the tables' pages linked from the page in view are kept for offline use;
// - signing out asks first when entries are unsent, then empties the kept pages and the queue;
//   a page of another account, or of nobody, empties the kept pages too, and so does any answer of
//   the server saying the session ended (a refresh, a background fetch, a result sent).
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !window.indexedDB) { return; }
  // data-account: the signed-in account's id, "" when signed out, absent on the offline page
  // (which cannot know who is signed in and so leaves everything as it is).
  var ACCOUNT = script.getAttribute("data-account");
  var ACCOUNT_NAME = script.getAttribute("data-account-name") || "";
  var SIGN_OUT = script.getAttribute("data-sign-out");
  var WORKER = script.getAttribute("data-worker");
  var PAGES_CACHE = "arboretum-pages";  // the worker's name for it
  var TABLE_PAGES = /^\/events\/\d+\/rounds\/\d+(\/tables\/\d+)?\/?$/;  // as in the worker
  var PREFETCH_AT_MOST = 60;
  var PREFETCH_FRESH_MS = 5 * 60 * 1000;
  var RETRY_MS = 15000;
  var POST_TIMEOUT_MS = 20000;
  var STRINGS_KEY = "arboretum-page-strings";

  // ---- what the scripts say, in the reader's language ----
  // Every page renders the strings translated into a JSON block (base.html, organizer/offline.py
  // page_strings); the offline page, a static file, uses the last ones this device was given.
  var STRINGS = (function () {
    var block = document.getElementById("page-strings");
    var found = null;
    try { found = block ? JSON.parse(block.textContent) : null; } catch (ignored) { found = null; }
    if (found) {
      try { localStorage.setItem(STRINGS_KEY, block.textContent); } catch (ignored) { /* private mode */ }
      return found;
    }
    try { return JSON.parse(localStorage.getItem(STRINGS_KEY) || "{}") || {}; } catch (ignored) { return {}; }
  })();
  function fill(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (whole, name) {
      return values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  }
  function t(english, values) {
    return fill(typeof STRINGS[english] === "string" ? STRINGS[english] : english, values);
  }
  function tn(one, other, count, values) {
    var forms = STRINGS[one];
    var text = Array.isArray(forms) ? forms[count === 1 ? 0 : 1] : (count === 1 ? one : other);
    var all = { count: count };
    Object.keys(values || {}).forEach(function (name) { all[name] = values[name]; });
    return fill(text, all);
  }
  function translateStaticPage() {
    // offline.html marks its sentences with data-translate; their English text is the key
    var marked = document.querySelectorAll("[data-translate]");
    if (!marked.length) { return; }
    marked.forEach(function (node) { node.textContent = t(node.textContent.replace(/\s+/g, " ").trim()); });
    if (STRINGS._language) { document.documentElement.lang = STRINGS._language; }
    document.title = t("No connection") + " · " + (STRINGS["Arboretum Organizer"] || "Arboretum Organizer");
  }

  // ---- IndexedDB: one store of entries, keyed by the form's address (one entry per table) ----
  var dbPromise = null;
  function db() {
    if (!dbPromise) {
      dbPromise = new Promise(function (resolve, reject) {
        var open = indexedDB.open("arboretum-offline", 1);
        open.onupgradeneeded = function () {
          open.result.createObjectStore("results", { keyPath: "key" });
          open.result.createObjectStore("meta");
        };
        open.onsuccess = function () { resolve(open.result); };
        open.onerror = function () { reject(open.error); };
      });
    }
    return dbPromise;
  }
  function run(store, mode, work) {
    return db().then(function (base) {
      return new Promise(function (resolve, reject) {
        var tx = base.transaction(store, mode);
        var request = work(tx.objectStore(store));
        tx.oncomplete = function () { resolve(request ? request.result : undefined); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error); };
      });
    });
  }
  function entries() { return run("results", "readonly", function (s) { return s.getAll(); }); }
  function keep(entry) { return run("results", "readwrite", function (s) { return s.put(entry); }); }
  function forget(key) { return run("results", "readwrite", function (s) { return s.delete(key); }); }
  function forgetAll() { return run("results", "readwrite", function (s) { return s.clear(); }); }
  function meta(name) { return run("meta", "readonly", function (s) { return s.get(name); }); }
  function setMeta(name, value) { return run("meta", "readwrite", function (s) { return s.put(value, name); }); }
  function clearPages() { return window.caches ? caches.delete(PAGES_CACHE) : Promise.resolve(); }
  // Any answer of the server saying this tablet's session is over (ended there, expired, the
  // account disabled) empties the kept pages at once: they must not be shown offline afterwards.
  function sessionOver(response) {
    return response.status === 401 || response.type === "opaqueredirect" ||
      (response.redirected && new URL(response.url).pathname.slice(-8) === "/sign-in");
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (ignored) { return ""; }  // a page without the header: the entry's own token is used
  }
  function nonce() {
    return window.crypto && crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random();
  }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function say(text, kind) {
    var box = document.getElementById("messages");
    if (!box) { return; }
    box.replaceChildren(el("p", "flash " + (kind || "warning"), text));
  }

  // ---- what the judge typed, as an entry ----
  function isResultForm(node) { return node && node.matches && node.matches("form[data-offline-queue]"); }
  function fieldLabel(field) {
    var label = field.getAttribute("aria-label") || (field.labels && field.labels[0] ? field.labels[0].textContent : "");
    var legend = field.closest("fieldset") && field.closest("fieldset").querySelector("legend");
    if (legend) { label = legend.textContent + " · " + label; }
    if (!label) {
      var row = field.closest("tr");
      label = (row && row.querySelector("th") ? row.querySelector("th").textContent : field.name);
    }
    return label.trim();
  }
  function entryFromForm(form, uncertain) {
    var fields = [];
    var csrf = "";
    new FormData(form).forEach(function (value, name) {
      if (name === "csrf_token") { csrf = value; return; }
      if (typeof value !== "string" && !value.name) { return; }  // an empty file input
      fields.push([name, value]);
    });
    var summary = [];
    form.querySelectorAll("input:not([type=hidden]):not([type=file]), textarea").forEach(function (field) {
      if (field.value.trim()) { summary.push([fieldLabel(field), field.value.trim().replace(/\s*\n\s*/g, "; ")]); }
    });
    var action = new URL(form.getAttribute("action"), location.href);
    return {
      key: action.pathname, action: action.pathname, page: form.getAttribute("data-offline-page"),
      label: form.getAttribute("data-offline-label"), mode: form.elements.mode ? form.elements.mode.value : "",
      version: parseInt(form.elements.version ? form.elements.version.value : "0", 10) || 0,
      nonce: nonce(), csrf: csrf, fields: fields, summary: summary, account: ACCOUNT, accountName: ACCOUNT_NAME,
      created: Date.now(), status: "queued", uncertain: !!uncertain, conflict: null, message: ""
    };
  }
  function queueForm(form, uncertain) {
    var entry = entryFromForm(form, uncertain);
    return keep(entry).then(function () {
      say(entry.mode === "assistant"
        ? t("Saved on this tablet, not sent yet: %(label)s. It is sent when the connection returns, and the engine scores it then.", { label: entry.label })
        : t("Saved on this tablet, not sent yet: %(label)s. It is sent when the connection returns.", { label: entry.label }));
      return refresh();
    });
  }

  // ---- sending, once the connection is back ----
  var sending = false;
  function flush() {
    if (sending || ACCOUNT === null || ACCOUNT === "" || navigator.onLine === false) { return Promise.resolve(); }
    // One tab of the tablet sends at a time: two tabs sending the same entry would give the
    // second a needless conflict (never a second result: the server checks the version).
    if (navigator.locks) {
      return navigator.locks.request("arboretum-offline-send", { ifAvailable: true }, function (lock) {
        return lock ? sendAll() : null;
      });
    }
    return sendAll();
  }
  function sendAll() {
    sending = true;
    return entries().then(function (all) {
      var waiting = all.filter(function (e) { return e.status === "queued" && e.account === ACCOUNT; });
      waiting.sort(function (a, b) { return a.created - b.created; });
      var chain = Promise.resolve(true);
      waiting.forEach(function (entry) {
        chain = chain.then(function (goOn) { return goOn ? send(entry) : false; });
      });
      return chain;
    }).then(function () { sending = false; return refresh(); },
            function () { sending = false; return refresh(); });
  }
  function send(entry) {
    var body = new FormData();
    entry.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    var token = csrfToken() || entry.csrf;
    body.set("csrf_token", token);
    body.set("version", String(entry.version));
    entry.uncertain = true;  // from here until an answer comes, the server may have it
    return keep(entry).then(function () {
      var controller = window.AbortController ? new AbortController() : null;
      var timer = controller ? setTimeout(function () { controller.abort(); }, POST_TIMEOUT_MS) : null;
      return fetch(entry.action, {
        method: "POST", body: body, credentials: "same-origin", redirect: "manual",
        headers: { "HX-Request": "true", "X-CSRFToken": token }, signal: controller ? controller.signal : undefined
      }).finally(function () { if (timer) { clearTimeout(timer); } });
    }).then(function (response) {
      return answered(entry, response);
    }, function () {
      return false;  // no answer: kept as it is, tried again later
    });
  }
  function answered(entry, response) {
    if (sessionOver(response)) { clearPages(); }
    if (response.status === 200 && response.headers.get("HX-Redirect")) {
      return forget(entry.key).then(function () {
        say(t("Sent and saved: %(label)s.", { label: entry.label }), "ok");
        showSaved(entry);
        return true;
      });
    }
    if (response.status === 409 || response.status === 422) {
      return response.text().then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        var form = page.querySelector("form[data-offline-queue]");
        // 409 is save_result's ResultConflict; a refusal (422) that shows another version than
        // the entry's is the same case said otherwise (a stale version), and is settled the same way.
        var current = form ? parseInt(form.getAttribute("data-current-version"), 10) : NaN;
        if (response.status === 409 || (current > 0 && current !== entry.version)) {
          var rows = [];
          page.querySelectorAll("#stored-result tbody tr").forEach(function (row) {
            rows.push(Array.prototype.map.call(row.querySelectorAll("td"), function (cell) {
              return cell.textContent.trim();
            }).filter(Boolean).join(" "));
          });
          entry.status = "conflict";
          entry.conflict = {
            version: form ? current : entry.version + 1,
            by: form ? form.getAttribute("data-current-by") : "", figures: rows
          };
        } else {
          entry.status = "refused";
          entry.message = Array.prototype.map.call(page.querySelectorAll(".flash.error, p.error"), function (p) {
            return p.textContent.trim();
          }).join(" ") || t("The server refused it.");
        }
        entry.uncertain = entry.status === "conflict" && entry.uncertain;
        return keep(entry).then(function () { return true; });
      });
    }
    entry.message = response.status === 401 || response.type === "opaqueredirect"
      ? t("Sign in again to send it.") : t("The server answered %(status)s; it is tried again later.", { status: response.status });
    return keep(entry).then(function () { return false; });
  }
  function showSaved(entry) {
    // The table's own page shows the stored result at once.
    if (location.pathname === entry.page && window.htmx && document.getElementById("table-result")) {
      htmx.ajax("GET", entry.page, { target: "#table-result", swap: "outerHTML" });
    }
  }

  // ---- what the judge sees: the count, the list, the note on the table's page ----
  function describe(entry) {
    if (entry.account !== ACCOUNT) {
      return t("Entered as %(name)s: sign in as them to send it, or drop it.", { name: entry.accountName || t("another account") });
    }
    if (entry.status === "conflict") {
      var c = entry.conflict || {};
      var who = { name: c.by || t("Someone"), version: c.version, figures: (c.figures || []).join("; ") };
      var text = c.figures && c.figures.length
        ? t("Not sent: the table changed meanwhile. %(name)s saved version %(version)s (%(figures)s).", who)
        : t("Not sent: the table changed meanwhile. %(name)s saved version %(version)s.", who);
      if (entry.uncertain && c.by === entry.accountName && c.version === entry.version + 1) {
        text += " " + t("It may be this very entry: it reached the server but the answer was lost. Compare, then drop yours if so.");
      }
      return text;
    }
    if (entry.status === "refused") { return t("Not sent: %(reason)s", { reason: entry.message }); }
    return (entry.mode === "assistant" ? t("Not sent yet; the engine scores it when it is sent.") : t("Not sent yet.")) +
      (entry.message ? " " + entry.message : "");
  }
  function button(text, onClick, primary) {
    var b = el("button", "button small" + (primary ? " primary" : ""), text);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }
  function entryItem(entry) {
    var item = el("li", "offline-entry");
    item.setAttribute("data-status", entry.status);
    var head = el("p");
    head.appendChild(el("strong", "", entry.label));
    head.appendChild(document.createTextNode(" "));
    head.appendChild(el("span", "badge " + (entry.status === "queued" ? "warn" : "bad"),
                        entry.status === "queued" ? t("not sent yet") : entry.status === "conflict" ? t("conflict") : t("refused")));
    item.appendChild(head);
    item.appendChild(el("p", "", describe(entry)));
    item.appendChild(el("p", "muted", t("Yours (%(mode)s, made from version %(version)s): %(figures)s", {
      mode: entry.mode, version: entry.version,
      figures: entry.summary.map(function (pair) { return pair[0] + " " + pair[1]; }).join("; ")
    })));
    var actions = el("div", "actions");
    if (entry.page) {
      var open = el("a", "button small", t("Open the table"));
      open.href = entry.page;
      actions.appendChild(open);
    }
    if (entry.account === ACCOUNT && entry.status === "conflict") {
      actions.appendChild(button(t("Send mine over it"), function () {
        entry.version = entry.conflict.version;
        entry.status = "queued"; entry.conflict = null; entry.uncertain = false; entry.message = "";
        keep(entry).then(flush);
      }, true));
    }
    if (entry.account === ACCOUNT && entry.status === "refused") {
      actions.appendChild(button(t("Try again"), function () {
        entry.status = "queued"; entry.message = "";
        keep(entry).then(flush);
      }));
    }
    actions.appendChild(button(entry.status === "conflict" ? t("Drop mine, keep theirs") : t("Drop it"), function () {
      if (window.confirm(t("Drop the entry for %(label)s? It was never saved on the server.", { label: entry.label }))) {
        forget(entry.key).then(refresh);
      }
    }));
    item.appendChild(actions);
    return item;
  }
  function refresh() {
    return entries().then(function (all) {
      // the top bar's status slot (base.html), else its nav (offline.html and older pages)
      var slot = document.getElementById("topbar-status") || document.querySelector(".topbar nav");
      var count = document.getElementById("offline-count");
      if (slot && !count) {
        count = el("a", "badge warn offline-count");
        count.id = "offline-count";
        count.href = "#offline-queue";
        slot.insertBefore(count, slot.firstChild);
      }
      if (count) {
        count.textContent = tn("%(count)s not sent yet", "%(count)s not sent yet", all.length);
        count.hidden = all.length === 0;
        count.style.display = all.length ? "" : "none";  // the badge class would show it despite hidden
      }
      var main = document.querySelector("main");
      var panel = document.getElementById("offline-queue");
      if (main && !panel) {
        panel = el("section", "card offline-queue");
        panel.id = "offline-queue";
        panel.setAttribute("aria-live", "polite");
        var messages = document.getElementById("messages");
        main.insertBefore(panel, messages ? messages.nextSibling : main.firstChild);
      }
      if (panel) {
        panel.hidden = all.length === 0;
        panel.style.display = all.length ? "" : "none";
        panel.replaceChildren(el("h2", "", t("Results kept on this tablet")));
        var list = el("ul", "plain");
        all.sort(function (a, b) { return a.created - b.created; }).forEach(function (entry) { list.appendChild(entryItem(entry)); });
        panel.appendChild(list);
      }
      markForm(all);
    });
  }
  function markForm(all) {
    var form = document.querySelector("form[data-offline-queue]");
    if (!form) { return; }
    var key = new URL(form.getAttribute("action"), location.href).pathname;
    var entry = all.filter(function (e) { return e.key === key; })[0];
    var note = document.getElementById("offline-note");
    if (!entry) { if (note) { note.remove(); } return; }
    if (!note) {
      note = el("p", "flash warning");
      note.id = "offline-note";
      note.setAttribute("role", "status");
      form.parentNode.insertBefore(note, form);
    }
    note.textContent = entry.mode === "assistant"
      ? t("Not sent yet: this table's entry is kept on this tablet and is sent when the connection returns; the engine scores it then, so no score is shown until then. Saving again replaces it.")
      : t("Not sent yet: this table's entry is kept on this tablet and is sent when the connection returns. Saving again replaces it.");
    if (!form.hasAttribute("data-offline-filled") && entry.mode === (form.elements.mode || {}).value) {
      // A page reloaded from the kept copy shows the form as it was made: put the entry back in.
      form.setAttribute("data-offline-filled", "");
      entry.fields.forEach(function (pair) {
        var field = form.elements[pair[0]];
        if (!field || typeof pair[1] !== "string" || field.type === "hidden" || field.type === "file") { return; }
        field.value = pair[1];
        field.dispatchEvent(new Event("input", { bubbles: true }));
      });
    }
  }

  // ---- keeping the pages a judge needs ----
  function prefetch() {
    if (!window.caches || !ACCOUNT || navigator.onLine === false) { return; }
    var seen = {};
    var urls = [];
    if (TABLE_PAGES.test(location.pathname)) { urls.push(location.pathname + location.search); }
    document.querySelectorAll("a[href]").forEach(function (link) {
      var url = new URL(link.href, location.href);
      if (url.origin === location.origin && TABLE_PAGES.test(url.pathname)) { urls.push(url.pathname + url.search); }
    });
    urls = urls.filter(function (url) { if (seen[url]) { return false; } seen[url] = true; return true; })
      .slice(0, PREFETCH_AT_MOST);
    caches.open(PAGES_CACHE).then(function (cache) {
      return urls.reduce(function (chain, url) {
        return chain.then(function () {
          return cache.match(url).then(function (kept) {
            var date = kept && Date.parse(kept.headers.get("Date") || "");
            if (kept && Date.now() - date < PREFETCH_FRESH_MS) { return null; }
            return fetch(url, { credentials: "same-origin" }).then(function (response) {
              if (sessionOver(response)) { return clearPages().then(function () { throw new Error("signed out"); }); }
              var type = response.headers.get("Content-Type") || "";
              if (response.ok && !response.redirected && type.indexOf("text/html") === 0) { return cache.put(url, response); }
              return null;
            });
          });
        });
      }, Promise.resolve());
    }).catch(function () { return null; });  // offline halfway: what was kept stays kept
  }
  function listKeptPages() {
    var list = document.getElementById("kept-pages");
    if (!list || !window.caches) { return; }
    caches.open(PAGES_CACHE).then(function (cache) { return cache.keys(); }).then(function (requests) {
      requests.forEach(function (request) {
        var url = new URL(request.url);
        var item = el("li");
        var parts = url.pathname.match(/^\/events\/(\d+)\/rounds\/(\d+)(?:\/tables\/(\d+))?/) || [];
        var where = { event: parts[1], round: parts[2], table: parts[3] };
        var name = !parts.length ? url.pathname : parts[3]
          ? t("Event %(event)s · round %(round)s · table %(table)s", where) : t("Event %(event)s · round %(round)s", where);
        var link = el("a", "", name + (url.search ? " (" + url.search.slice(1) + ")" : ""));
        link.href = url.pathname + url.search;
        item.appendChild(link);
        list.appendChild(item);
      });
    });
  }

  // ---- wiring ----
  document.addEventListener("htmx:configRequest", function (event) {
    if (isResultForm(event.detail.elt)) { event.detail.timeout = POST_TIMEOUT_MS; }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var source = event.detail.elt;
    if (navigator.onLine !== false) { return; }
    if (isResultForm(source)) {
      event.preventDefault();
      queueForm(source, false);
    } else if (source.tagName === "A" && source.href && event.detail.requestConfig.verb === "get") {
      event.preventDefault();
      location.href = source.href;  // the whole page, which the worker has kept
    }
  });
  function noAnswer(event) {
    var source = event.detail.elt;
    if (isResultForm(source)) {
      queueForm(source, true);  // it may have reached the server: the version check decides
    } else if (source.tagName === "A" && source.href && event.detail.requestConfig && event.detail.requestConfig.verb === "get") {
      location.href = source.href;
    }
  }
  document.addEventListener("htmx:sendError", noAnswer);
  document.addEventListener("htmx:timeout", noAnswer);
  document.addEventListener("htmx:afterRequest", function (event) {
    // Saved directly: this device's older unsent entry for the table is superseded.
    var xhr = event.detail.xhr;
    if (isResultForm(event.detail.elt) && xhr && xhr.status === 200 && xhr.getResponseHeader("HX-Redirect")) {
      forget(new URL(event.detail.elt.getAttribute("action"), location.href).pathname).then(refresh);
    }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    // A table's result swapped in (its note and form are new); other swaps (polls) leave the list be.
    var swapped = event.target;
    if (swapped && (swapped.id === "table-result" || (swapped.querySelector && swapped.querySelector("form[data-offline-queue]")))) {
      refresh();
    }
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!SIGN_OUT || !form.action || new URL(form.action, location.href).pathname !== SIGN_OUT) { return; }
    if (form.hasAttribute("data-offline-cleared")) { return; }
    event.preventDefault();
    entries().then(function (all) {
      if (all.length && !window.confirm(tn("%(count)s result entered on this tablet is not sent yet and will be lost. Sign out anyway?",
          "%(count)s results entered on this tablet are not sent yet and will be lost. Sign out anyway?", all.length))) { return; }
      Promise.all([forgetAll(), clearPages(), setMeta("account", "")]).then(function () {
        form.setAttribute("data-offline-cleared", "");
        form.submit();
      });
    });
  }, true);
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (xhr && xhr.status === 401) { clearPages(); }  // a refresh of the page in view, after the session ended
  });
  window.addEventListener("online", function () { flush(); });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { flush(); } });
  setInterval(flush, RETRY_MS);

  function start() {
    var ready = Promise.resolve();
    if (ACCOUNT !== null) {
      // Kept pages belong to the account that opened them: none survive a sign-out, an expired
      // session or another account on the same tablet.
      ready = meta("account").then(function (owner) {
        if (ACCOUNT === "" || owner !== ACCOUNT) {
          return clearPages().then(function () { return ACCOUNT ? setMeta("account", ACCOUNT) : null; });
        }
        return null;
      });
    }
    translateStaticPage();
    ready.then(refresh).then(function () {
      listKeptPages();
      if (ACCOUNT && WORKER && navigator.serviceWorker) {
        navigator.serviceWorker.register(WORKER, { scope: "/" }).catch(function () { return null; });
      }
      prefetch();
      flush();
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
