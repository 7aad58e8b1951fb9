// The scenario form's card picker and action buttons. Everything they do is written into
// the form's own text fields (the shoe, the burned cards, the cut card, each box's actions,
// insurance and even money), which take the same words typed by hand: without this script
// the form works as it is. The shoe is drawn as it is built, each card saying where the deal
// sends it, with a gap before each card to place the cut card.
(function () {
  "use strict";
  var SYMBOLS = { s: "♠", h: "♥", d: "♦", c: "♣" };
  var LETTERS = { "♠": "s", "♥": "h", "♦": "d", "♣": "c" };
  var picker = document.querySelector("[data-card-picker]");
  var shoe = document.getElementById("id_shoe");
  var burn = document.getElementById("id_burn");
  var cut = document.getElementById("id_cut_card_before");
  var profile = document.getElementById("id_profile");

  function words(text) {
    return text.split(/[\s,]+/).filter(Boolean);
  }

  // A card as the picker draws it ("A♥", "10♦"), or null when the word is not a card.
  function drawn(word) {
    var w = word.trim();
    var last = w.slice(-1);
    if (LETTERS[last]) w = w.slice(0, -1) + LETTERS[last];
    var found = /^(10|[2-9tjqka])([shdc])$/i.exec(w);
    if (!found) return null;
    var rank = found[1].toUpperCase();
    return { rank: rank === "T" ? "10" : rank, suit: found[2].toLowerCase() };
  }

  function say(node, text) {
    if (node) node.textContent = text;
  }

  // Where the deal sends each shoe card: each seated box, the dealer's up card, each box
  // again, the hole card (none at a no-hole-card table); then the draws.
  function dealPlaces() {
    var seated = [];
    for (var n = 1; n <= 7; n += 1) {
      var stakes = document.getElementById("id_box_" + n + "_stakes");
      if (stakes && stakes.value.trim()) seated.push("Box " + n);
    }
    if (!seated.length) return [];
    var noHole = picker.dataset.noHoleCard.split(" ").indexOf(profile ? profile.value : "") >= 0;
    var places = seated.concat(["Dealer's up card"], seated);
    if (!noHole) places.push("Dealer's hole card");
    return places;
  }

  if (picker && shoe && burn && cut) {
    var target = "shoe";
    var rank = null;
    var list = picker.querySelector("[data-drawn-shoe]");
    var news = picker.querySelector("[data-card-news]");
    var suitButtons = picker.querySelectorAll("[data-suit]");

    function field() {
      return target === "burn" ? burn : shoe;
    }

    function chooseRank(button) {
      rank = button.dataset.rank;
      picker.querySelectorAll("[data-rank]").forEach(function (b) {
        b.setAttribute("aria-pressed", b === button ? "true" : "false");
      });
      suitButtons.forEach(function (b) {
        b.disabled = false;
      });
      say(news, rank + " chosen: now a suit.");
    }

    function addCard(suit) {
      if (!rank) return;
      var box = field();
      var card = rank + SYMBOLS[suit];
      box.value = words(box.value).concat([card]).join(" ");
      var count = words(box.value).length;
      say(news, card + " added: " + (target === "burn" ? "burned card " : "card ") + count + ".");
      rank = null;
      picker.querySelectorAll("[data-rank]").forEach(function (b) {
        b.setAttribute("aria-pressed", "false");
      });
      suitButtons.forEach(function (b) {
        b.disabled = true;
      });
      draw();
    }

    function takeBack() {
      var box = field();
      var cards = words(box.value);
      var gone = cards.pop();
      box.value = cards.join(" ");
      say(news, gone ? gone + " taken back." : "No card to take back.");
      draw();
    }

    function placeCut(before) {
      var now = parseInt(cut.value, 10);
      cut.value = now === before ? "" : String(before);
      say(news, cut.value ? "The cut card is before card " + before + "." : "The cut card is taken away.");
      draw();
      var again = list.querySelector('[data-gap="' + before + '"]');
      if (again) again.focus();
    }

    function item(className, text, label) {
      var li = document.createElement("li");
      li.className = className;
      var face = document.createElement("span");
      face.className = "picked-card";
      face.textContent = text;
      li.appendChild(face);
      if (label) {
        var where = document.createElement("span");
        where.className = "picked-where";
        where.textContent = label;
        li.appendChild(where);
      }
      return li;
    }

    function draw() {
      list.textContent = "";
      var places = dealPlaces();
      var at = parseInt(cut.value, 10);
      words(burn.value).forEach(function (word) {
        var card = drawn(word);
        list.appendChild(item("burned", card ? card.rank + SYMBOLS[card.suit] : word, "Burned"));
      });
      words(shoe.value).forEach(function (word, i) {
        var n = i + 1;
        var gap = document.createElement("li");
        gap.className = "gap" + (at === n ? " cut-here" : "");
        var button = document.createElement("button");
        button.type = "button";
        button.dataset.gap = String(n);
        button.setAttribute("aria-pressed", at === n ? "true" : "false");
        button.setAttribute("aria-label", "Cut card before card " + n);
        button.textContent = at === n ? "Cut card" : "";
        button.addEventListener("click", function () {
          placeCut(n);
        });
        gap.appendChild(button);
        list.appendChild(gap);
        var card = drawn(word);
        var li = item(
          "card-" + (card ? card.suit : "bad"),
          card ? card.rank + SYMBOLS[card.suit] : word,
          n + ". " + (card ? places[i] || "Drawn" : "not a card")
        );
        list.appendChild(li);
      });
    }

    picker.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button || !picker.contains(button)) return;
      if (button.dataset.target) {
        target = button.dataset.target;
        picker.querySelectorAll("[data-target]").forEach(function (b) {
          b.setAttribute("aria-pressed", b === button ? "true" : "false");
        });
      } else if (button.dataset.rank) {
        chooseRank(button);
      } else if (button.dataset.suit) {
        addCard(button.dataset.suit);
      } else if (button.hasAttribute("data-card-undo")) {
        takeBack();
      }
    });
    [shoe, burn, cut, profile].forEach(function (node) {
      if (node) node.addEventListener("input", draw);
      if (node) node.addEventListener("change", draw);
    });
    document.querySelectorAll("[id$='_stakes']").forEach(function (node) {
      node.addEventListener("input", draw);
    });
    picker.hidden = false;
    draw();
  }

  var actions = document.querySelector("[data-action-picker]");
  if (actions) {
    var boxSelect = actions.querySelector("[data-picker-box]");
    var amount = actions.querySelector("[data-picker-amount]");
    var actionNews = actions.querySelector("[data-action-news]");

    function boxField(part) {
      return document.getElementById("id_box_" + boxSelect.value + "_" + part);
    }

    function host() {
      var stakes = boxField("stakes").value.split(",")[0] || "";
      var parts = words(stakes);
      return parts.length > 1 ? parts[0] : "p" + boxSelect.value;
    }

    function money() {
      var value = amount.value.trim();
      if (!/^\d+(\.\d{1,2})?$/.test(value)) {
        say(actionNews, "Write the amount in money first, e.g. 10 or 7.50.");
        amount.focus();
        return null;
      }
      return value;
    }

    actions.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button || !actions.contains(button)) return;
      var box = "Box " + boxSelect.value;
      var field = boxField("actions");
      var list = words(field.value);
      var kind = button.dataset.action;
      if (button.hasAttribute("data-action-undo")) {
        // "double for 10" is one action of three words.
        var cutAt = list.length >= 3 && list[list.length - 3] === "double" && list[list.length - 2] === "for" ? 3 : 1;
        list.splice(list.length - cutAt, cutAt);
        field.value = list.join(" ");
        say(actionNews, box + ": the last action is taken back.");
      } else if (kind === "double-for") {
        var value = money();
        if (value === null) return;
        field.value = list.concat(["double", "for", value]).join(" ");
        say(actionNews, box + ": double for " + value + " added.");
      } else if (kind === "insurance") {
        var insured = money();
        if (insured === null) return;
        boxField("insurance").value = host() + " " + insured;
        say(actionNews, box + ": " + host() + " takes insurance for " + insured + ".");
      } else if (kind === "even-money") {
        boxField("even_money").value = host();
        say(actionNews, box + ": " + host() + " takes even money.");
      } else if (kind) {
        field.value = list.concat([kind]).join(" ");
        say(actionNews, box + ": " + kind + " added.");
      }
    });
    actions.hidden = false;
  }
})();
