// The organizer's service worker, served as /sw.js by organizer/offline.py, which puts
// in the shell's files and version. Written by hand rather than with Workbox: it does three small
// things (keep the shell, keep the pages a judge needs at a table, answer for them without a
// connection), needs no build step, and every line of it can be read here.
//
// What it never does: answer a POST (it does not look at anything but GET), keep a page that is
// not a round's or a table's page, or keep an answer that was a redirect (signed out) or an error.
// The queue of results entered offline lives in IndexedDB and is sent by the pages
// (static/offline/page.js), which also empty this cache at sign-out, when another account signs in,
// and at any answer saying the session ended; this worker empties it when a kept page's answer
// says so.
"use strict";

var SHELL_VERSION = "__SHELL_VERSION__";
var SHELL_FILES = __SHELL_FILES__;
var SHELL_CACHE = "arboretum-shell-" + SHELL_VERSION;
var PAGES_CACHE = "arboretum-pages";  // the name static/offline/page.js empties
var OFFLINE_PAGE = SHELL_FILES.filter(function (url) { return /offline\.html$/.test(url); })[0];
// A round's page (its list of tables) and a table's page, in any entry mode.
var TABLE_PAGES = /^\/events\/\d+\/rounds\/\d+(\/tables\/\d+)?\/?$/;
var SLOW_NETWORK_MS = 6000;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL_CACHE).then(function (cache) { return cache.addAll(SHELL_FILES); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("arboretum-shell-") === 0 && name !== SHELL_CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function keepable(response) {
  var type = response.headers.get("Content-Type") || "";
  return response.ok && !response.redirected && response.type === "basic" && type.indexOf("text/html") === 0;
}

function signedOut(response) {
  // A round's or a table's page answers with a redirect (to the sign-in page) or 401 only
  // when the request's session is over.
  return response.type === "opaqueredirect" || response.redirected || response.status === 401;
}

function kept(request) {
  return caches.open(PAGES_CACHE).then(function (cache) { return cache.match(request.url); });
}

function tablePage(request) {
  // Network first: with a connection the page is always the server's latest, and the copy kept
  // is what the tablet shows when the network fails, or when it has not answered in
  // SLOW_NETWORK_MS (a venue's Wi-Fi that is connected but carries nothing).
  var network = fetch(request).then(function (response) {
    if (keepable(response)) {
      var copy = response.clone();
      caches.open(PAGES_CACHE).then(function (cache) { return cache.put(request.url, copy); });
    } else if (signedOut(response)) {
      // The session this tablet kept the pages under has ended on the server: none of them
      // may be shown offline any more, whoever holds the tablet.
      return caches.delete(PAGES_CACHE).then(function () { return response; });
    }
    return response;
  });
  var slow = new Promise(function (resolve) {
    setTimeout(function () { kept(request).then(function (page) { if (page) { resolve(page); } }); }, SLOW_NETWORK_MS);
  });
  return Promise.race([network, slow]).catch(function () {
    return kept(request).then(function (page) { return page || caches.match(OFFLINE_PAGE); });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.mode === "navigate") {
    if (TABLE_PAGES.test(url.pathname)) {
      event.respondWith(tablePage(request));
    } else {
      event.respondWith(fetch(request).catch(function () { return caches.match(OFFLINE_PAGE); }));
    }
    return;
  }
  if (SHELL_FILES.indexOf(url.pathname) >= 0) {
    // The shell: the kept copy first. SHELL_VERSION is made from the files' contents, so a
    // deploy that changes one installs a new worker and a new copy.
    event.respondWith(caches.match(url.pathname).then(function (copy) { return copy || fetch(request); }));
  }
  // Everything else (htmx requests, live polls, downloads) goes to the network untouched.
});
