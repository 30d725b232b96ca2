// Scoring assistant: tap-to-place entry on top of the arboretum textareas and hand inputs.
// The text fields stay the source of truth (the server reads only them, and without JavaScript
// they are typed by hand): every tap rewrites their text, and typing re-draws the grid.
(function () {
  "use strict";

  var PLANTED = /^\s*\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?\s+([A-Za-z][A-Za-z ]*[A-Za-z])\s+(\d+)\s*$/;
  var CARD = /^([A-Za-z][A-Za-z ]*[A-Za-z])\s+(\d+)$/;
  var VALUES = [1, 2, 3, 4, 5, 6, 7, 8];

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function button(label, attrs) {
    var b = el("button", Object.assign({ type: "button" }, attrs || {}), label);
    return b;
  }

  // The page's strings, in the reader's language (rendered by the template through gettext into a
  // JSON block); "{name}" slots are filled in here. English is the fallback.
  var FALLBACK = {
    done: "Done", cancel: "Cancel", value: "value {value}", taken: "{card} is already used at this table",
    plantedCards: "Planted cards of {name}", cardFor: "Card for {cell}", cardAt: "{card} at {cell}",
    remove: "Remove {card}", wouldSplit: "Removing it would split the arboretum: remove a card at an end first.",
    plantAt: "Plant at {cell}", notUnderstood: "Lines not understood (fix them in the text below): {lines}",
    handOf: "Hand of {name}", removeFromHand: "Remove {card} from the hand", addCard: "+ Card",
    addToHandOf: "Add a card to the hand of {name}", addToHandTitle: "Add to the hand of {name}",
    howTo: ""
  };

  function cardKey(species, value) { return species.toLowerCase().split(/\s+/).join(" ") + " " + value; }

  // Dark text on light species (yellow, light green, white), light text elsewhere.
  function inkFor(hex) {
    var n = parseInt(hex.replace("#", ""), 16);
    var lum = 0.299 * ((n >> 16) & 255) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
    return lum > 150 ? "#1b1b1b" : "#ffffff";
  }

  function parseArboretum(text) {
    var cards = [], rest = [];
    text.split("\n").forEach(function (line) {
      if (!line.trim()) return;
      var m = PLANTED.exec(line);
      if (m) cards.push({ x: +m[1], y: +m[2], species: m[3].split(/\s+/).join(" "), value: +m[4] });
      else rest.push(line);  // kept verbatim, so a typo is never silently thrown away
    });
    return { cards: cards, rest: rest };
  }

  function writeArboretum(parsed) {
    return parsed.cards.map(function (c) { return c.x + "," + c.y + " " + c.species + " " + c.value; })
      .concat(parsed.rest).join("\n");
  }

  function parseHand(text) {
    var cards = [], rest = [];
    text.split(/[,\n;]/).forEach(function (part) {
      var t = part.trim();
      if (!t) return;
      var m = CARD.exec(t);
      if (m) cards.push({ species: m[1].split(/\s+/).join(" "), value: +m[2] });
      else rest.push(t);
    });
    return { cards: cards, rest: rest };
  }

  function writeHand(parsed) {
    return parsed.cards.map(function (c) { return c.species + " " + c.value; }).concat(parsed.rest).join(", ");
  }

  function connected(cards) {
    if (cards.length < 2) return true;
    var at = {};
    cards.forEach(function (c) { at[c.x + "," + c.y] = true; });
    var seen = {}, todo = [cards[0].x + "," + cards[0].y], count = 0;
    seen[todo[0]] = true;
    while (todo.length) {
      var xy = todo.pop().split(",").map(Number);
      count += 1;
      [[1, 0], [-1, 0], [0, 1], [0, -1]].forEach(function (d) {
        var k = (xy[0] + d[0]) + "," + (xy[1] + d[1]);
        if (at[k] && !seen[k]) { seen[k] = true; todo.push(k); }
      });
    }
    return count === cards.length;
  }

  function enhance(form) {
    if (form.dataset.assistantReady) return;
    form.dataset.assistantReady = "1";
    var species = JSON.parse(form.dataset.assistantSpecies || "[]");  // [[name, hex], …] in scorepad order
    var block = form.querySelector("script.assistant-strings");
    var strings = block ? JSON.parse(block.textContent) : {};
    var names = strings.species || {};
    function t(key, vars) {
      var text = strings[key] !== undefined ? strings[key] : FALLBACK[key];
      Object.keys(vars || {}).forEach(function (name) { text = text.split("{" + name + "}").join(vars[name]); });
      return text;
    }
    function lookup(name) {
      var found = null;
      Object.keys(names).forEach(function (key) { if (key.toLowerCase() === name.toLowerCase()) found = names[key]; });
      return found || { name: name, code: name.slice(0, 2) };
    }
    // A card as a person reads it (species name in their language, value) and as a label (code, value).
    function cardName(c) { return lookup(c.species).name + " " + c.value; }
    function cardCode(c) { return lookup(c.species).code + " " + c.value; }
    var colours = {};
    species.forEach(function (s) { colours[s[0].toLowerCase()] = s[1]; });
    var editors = [];

    function usedCards() {
      var used = {};
      form.querySelectorAll("textarea[name^='arboretum_']").forEach(function (area) {
        parseArboretum(area.value).cards.forEach(function (c) { used[cardKey(c.species, c.value)] = true; });
      });
      form.querySelectorAll("input[name^='hand_']").forEach(function (input) {
        parseHand(input.value).cards.forEach(function (c) { used[cardKey(c.species, c.value)] = true; });
      });
      return used;
    }

    function redrawAll() { editors.forEach(function (e) { e.draw(); }); }
    function closePickers() { editors.forEach(function (e) { e.close(); }); }

    function paintCard(node, c) {
      var hex = colours[c.species.toLowerCase()] || "#cccccc";
      node.style.background = hex;
      node.style.color = inkFor(hex);
    }

    // The card picker: species in scorepad order, then values 1–8; cards used anywhere at this
    // table are disabled. ``onPick`` receives {species, value}.
    function cardPicker(title, onPick, onDone, keepOpen) {
      var box = el("div", { class: "assistant-picker", role: "group", "aria-label": title });
      box.appendChild(el("p", { class: "assistant-picker-title" }, title));
      var row = el("div", { class: "assistant-species" });
      var values = el("div", { class: "assistant-values" });
      var chosen = null;
      function drawValues() {
        values.textContent = "";
        var used = usedCards();
        VALUES.forEach(function (v) {
          var taken = chosen && used[cardKey(chosen, v)];
          var b = button(String(v), { "aria-label": chosen ? cardName({ species: chosen, value: v }) : t("value", { value: v }) });
          b.disabled = !chosen || !!taken;
          if (taken) b.title = t("taken", { card: cardName({ species: chosen, value: v }) });
          b.addEventListener("click", function () {
            onPick({ species: chosen, value: v });
            if (keepOpen) drawValues();
          });
          values.appendChild(b);
        });
      }
      species.forEach(function (s) {
        var b = button("", { "aria-pressed": "false", class: "assistant-species-button", "aria-label": lookup(s[0]).name });
        b.appendChild(el("strong", { class: "assistant-code", "aria-hidden": "true" }, lookup(s[0]).code));
        b.appendChild(el("span", { "aria-hidden": "true" }, " " + lookup(s[0]).name));
        b.style.background = s[1];
        b.style.color = inkFor(s[1]);
        b.addEventListener("click", function () {
          chosen = s[0];
          row.querySelectorAll("button").forEach(function (other) { other.setAttribute("aria-pressed", String(other === b)); });
          drawValues();
        });
        row.appendChild(b);
      });
      drawValues();
      box.appendChild(row);
      box.appendChild(values);
      var done = button(keepOpen ? t("done") : t("cancel"), { class: "button small" });
      done.addEventListener("click", onDone);
      box.appendChild(done);
      return box;
    }

    function arboretumEditor(area) {
      var owner = area.closest("fieldset");
      var who = owner && owner.querySelector("legend") ? owner.querySelector("legend").textContent.trim() : "";
      var wrap = el("div", { class: "assistant-editor" });
      var scroller = el("div", { class: "assistant-grid-scroll" });
      var grid = el("div", { class: "assistant-grid", role: "group", "aria-label": t("plantedCards", { name: who }) });
      var note = el("p", { class: "hint assistant-note" });
      var panel = el("div", { class: "assistant-panel" });
      scroller.appendChild(grid);
      wrap.appendChild(scroller);
      wrap.appendChild(note);
      wrap.appendChild(panel);
      area.parentNode.insertBefore(wrap, area.parentNode.querySelector("label") || area);

      function update(change) {
        var parsed = parseArboretum(area.value);
        change(parsed);
        area.value = writeArboretum(parsed);
        panel.textContent = "";
        redrawAll();
      }

      function openPlant(x, y) {
        closePickers();
        panel.appendChild(cardPicker(t("cardFor", { cell: x + "," + y }), function (card) {
          update(function (p) { p.cards.push({ x: x, y: y, species: card.species, value: card.value }); });
        }, function () { panel.textContent = ""; }, false));
      }

      function openPlanted(card) {
        closePickers();
        var where = t("cardAt", { card: cardName(card), cell: card.x + "," + card.y });
        var box = el("div", { class: "assistant-picker", role: "group", "aria-label": where });
        box.appendChild(el("p", { class: "assistant-picker-title" }, where));
        var rest = parseArboretum(area.value).cards.filter(function (c) { return !(c.x === card.x && c.y === card.y); });
        var remove = button(t("remove", { card: cardName(card) }), { class: "button small danger" });
        if (!connected(rest)) {
          remove.disabled = true;
          box.appendChild(el("p", { class: "hint" }, t("wouldSplit")));
        }
        remove.addEventListener("click", function () {
          update(function (p) { p.cards = p.cards.filter(function (c) { return !(c.x === card.x && c.y === card.y); }); });
        });
        var cancel = button(t("cancel"), { class: "button small" });
        cancel.addEventListener("click", function () { panel.textContent = ""; });
        box.appendChild(remove);
        box.appendChild(cancel);
        panel.appendChild(box);
      }

      function draw() {
        var parsed = parseArboretum(area.value);
        var at = {};
        parsed.cards.forEach(function (c) { at[c.x + "," + c.y] = c; });
        var open = {};
        if (!parsed.cards.length) open["0,0"] = true;
        parsed.cards.forEach(function (c) {
          [[1, 0], [-1, 0], [0, 1], [0, -1]].forEach(function (d) {
            var k = (c.x + d[0]) + "," + (c.y + d[1]);
            if (!at[k]) open[k] = true;
          });
        });
        var xs = [], ys = [];
        Object.keys(at).concat(Object.keys(open)).forEach(function (k) {
          var xy = k.split(",").map(Number);
          xs.push(xy[0]); ys.push(xy[1]);
        });
        var minX = Math.min.apply(null, xs), maxX = Math.max.apply(null, xs);
        var minY = Math.min.apply(null, ys), maxY = Math.max.apply(null, ys);
        grid.textContent = "";
        grid.style.gridTemplateColumns = "repeat(" + (maxX - minX + 1) + ", var(--assistant-cell))";
        for (var y = minY; y <= maxY; y++) {
          for (var x = minX; x <= maxX; x++) {
            var k = x + "," + y, node;
            if (at[k]) {
              var c = at[k];
              node = button("", { class: "assistant-cell planted", "aria-label": t("cardAt", { card: cardName(c), cell: k }) });
              node.appendChild(el("span", { class: "assistant-code", "aria-hidden": "true" }, lookup(c.species).code));
              node.appendChild(el("strong", { "aria-hidden": "true" }, String(c.value)));
              paintCard(node, c);
              node.addEventListener("click", openPlanted.bind(null, c));
            } else if (open[k]) {
              node = button("+", { class: "assistant-cell open", "aria-label": t("plantAt", { cell: k }) });
              node.addEventListener("click", openPlant.bind(null, x, y));
            } else {
              node = el("span", { class: "assistant-cell blank", "aria-hidden": "true" });
            }
            grid.appendChild(node);
          }
        }
        note.textContent = parsed.rest.length ? t("notUnderstood", { lines: parsed.rest.join(" · ") }) : "";
      }

      area.addEventListener("input", redrawAll);
      return { draw: draw, close: function () { panel.textContent = ""; } };
    }

    function handEditor(input) {
      var owner = input.closest("fieldset");
      var who = owner && owner.querySelector("legend") ? owner.querySelector("legend").textContent.trim() : "";
      var wrap = el("div", { class: "assistant-editor" });
      var chips = el("div", { class: "assistant-chips", role: "group", "aria-label": t("handOf", { name: who }) });
      var panel = el("div", { class: "assistant-panel" });
      wrap.appendChild(chips);
      wrap.appendChild(panel);
      input.parentNode.insertBefore(wrap, input.parentNode.querySelector("label") || input);

      function update(change) {
        var parsed = parseHand(input.value);
        change(parsed);
        input.value = writeHand(parsed);
        redrawAll();
      }

      function draw() {
        var parsed = parseHand(input.value);
        chips.textContent = "";
        parsed.cards.forEach(function (c, index) {
          var chip = button(cardCode(c) + " ×", { class: "assistant-chip", "aria-label": t("removeFromHand", { card: cardName(c) }) });
          paintCard(chip, c);
          chip.addEventListener("click", function () { update(function (p) { p.cards.splice(index, 1); }); });
          chips.appendChild(chip);
        });
        var add = button(t("addCard"), { class: "assistant-chip add", "aria-label": t("addToHandOf", { name: who }) });
        add.addEventListener("click", function () {
          closePickers();
          panel.appendChild(cardPicker(t("addToHandTitle", { name: who }), function (card) {
            update(function (p) { p.cards.push(card); });
          }, function () { panel.textContent = ""; }, true));
        });
        chips.appendChild(add);
        chips.appendChild(el("span", { class: "hint" }, (strings.cardCounts || [])[parsed.cards.length] || String(parsed.cards.length)));
      }

      input.addEventListener("input", redrawAll);
      return { draw: draw, close: function () { panel.textContent = ""; } };
    }

    var first = form.querySelector("fieldset");
    if (first && t("howTo")) first.parentNode.insertBefore(el("p", { class: "hint" }, t("howTo")), first);
    form.querySelectorAll("textarea[name^='arboretum_']").forEach(function (area) { editors.push(arboretumEditor(area)); });
    form.querySelectorAll("input[name^='hand_']").forEach(function (input) { editors.push(handEditor(input)); });
    redrawAll();
  }

  function enhanceAll(root) {
    var scope = root && root.querySelectorAll ? root : document;
    if (scope.matches && scope.matches("form[data-assistant-species]")) enhance(scope);
    scope.querySelectorAll("form[data-assistant-species]").forEach(enhance);
  }

  enhanceAll(document);
  document.addEventListener("htmx:load", function (event) { enhanceAll(event.detail && event.detail.elt); });
})();
