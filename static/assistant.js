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
          var b = button(String(v), { "aria-label": chosen ? chosen + " " + v : "value " + v });
          b.disabled = !chosen || !!taken;
          if (taken) b.title = chosen + " " + v + " is already used at this table";
          b.addEventListener("click", function () {
            onPick({ species: chosen, value: v });
            if (keepOpen) drawValues();
          });
          values.appendChild(b);
        });
      }
      species.forEach(function (s) {
        var b = button(s[0], { "aria-pressed": "false", class: "assistant-species-button" });
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
      var done = button(keepOpen ? "Done" : "Cancel", { class: "button small" });
      done.addEventListener("click", onDone);
      box.appendChild(done);
      return box;
    }

    function arboretumEditor(area) {
      var owner = area.closest("fieldset");
      var who = owner && owner.querySelector("legend") ? owner.querySelector("legend").textContent.trim() : "";
      var wrap = el("div", { class: "assistant-editor" });
      var scroller = el("div", { class: "assistant-grid-scroll" });
      var grid = el("div", { class: "assistant-grid", role: "group", "aria-label": "Planted cards of " + who });
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
        panel.appendChild(cardPicker("Card for " + x + "," + y, function (card) {
          update(function (p) { p.cards.push({ x: x, y: y, species: card.species, value: card.value }); });
        }, function () { panel.textContent = ""; }, false));
      }

      function openPlanted(card) {
        closePickers();
        var box = el("div", { class: "assistant-picker", role: "group", "aria-label": card.species + " " + card.value + " at " + card.x + "," + card.y });
        box.appendChild(el("p", { class: "assistant-picker-title" }, card.species + " " + card.value + " at " + card.x + "," + card.y));
        var rest = parseArboretum(area.value).cards.filter(function (c) { return !(c.x === card.x && c.y === card.y); });
        var remove = button("Remove " + card.species + " " + card.value, { class: "button small danger" });
        if (!connected(rest)) {
          remove.disabled = true;
          box.appendChild(el("p", { class: "hint" }, "Removing it would split the arboretum: remove a card at an end first."));
        }
        remove.addEventListener("click", function () {
          update(function (p) { p.cards = p.cards.filter(function (c) { return !(c.x === card.x && c.y === card.y); }); });
        });
        var cancel = button("Cancel", { class: "button small" });
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
              node = button("", { class: "assistant-cell planted", "aria-label": c.species + " " + c.value + " at " + k });
              node.appendChild(el("strong", {}, String(c.value)));
              node.appendChild(el("span", {}, c.species));
              paintCard(node, c);
              node.addEventListener("click", openPlanted.bind(null, c));
            } else if (open[k]) {
              node = button("+", { class: "assistant-cell open", "aria-label": "Plant at " + k });
              node.addEventListener("click", openPlant.bind(null, x, y));
            } else {
              node = el("span", { class: "assistant-cell blank", "aria-hidden": "true" });
            }
            grid.appendChild(node);
          }
        }
        note.textContent = parsed.rest.length ? "Lines not understood (fix them in the text below): " + parsed.rest.join(" · ") : "";
      }

      area.addEventListener("input", redrawAll);
      return { draw: draw, close: function () { panel.textContent = ""; } };
    }

    function handEditor(input) {
      var owner = input.closest("fieldset");
      var who = owner && owner.querySelector("legend") ? owner.querySelector("legend").textContent.trim() : "";
      var wrap = el("div", { class: "assistant-editor" });
      var chips = el("div", { class: "assistant-chips", role: "group", "aria-label": "Hand of " + who });
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
          var chip = button(c.species + " " + c.value + " ×", { class: "assistant-chip", "aria-label": "Remove " + c.species + " " + c.value + " from the hand" });
          paintCard(chip, c);
          chip.addEventListener("click", function () { update(function (p) { p.cards.splice(index, 1); }); });
          chips.appendChild(chip);
        });
        var add = button("+ Card", { class: "assistant-chip add", "aria-label": "Add a card to the hand of " + who });
        add.addEventListener("click", function () {
          closePickers();
          panel.appendChild(cardPicker("Add to the hand of " + who, function (card) {
            update(function (p) { p.cards.push(card); });
          }, function () { panel.textContent = ""; }, true));
        });
        chips.appendChild(add);
        chips.appendChild(el("span", { class: "hint" }, parsed.cards.length + " card" + (parsed.cards.length === 1 ? "" : "s")));
      }

      input.addEventListener("input", redrawAll);
      return { draw: draw, close: function () { panel.textContent = ""; } };
    }

    var first = form.querySelector("fieldset");
    if (first) {
      first.parentNode.insertBefore(el("p", { class: "hint" },
        "Or tap: + plants a card next to the others (choose the species, then the value); tap a planted card or a hand card to take it back. The text boxes follow every tap."), first);
    }
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
