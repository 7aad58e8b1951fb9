// Scarne's Casino's table (templates/games/casino/_table.html, _answer.html): the items are
// picked on the felt (toggle buttons), a play is made with the composer, the reason is asked
// only for an illegal play, and Enter answers. Every choice fills the fields the form posts
// without this script (ticks `takes`, lines `plays`, radios): the server reads one grammar.
// The composer offers every play the trainee can form; it never says which are legal.
(function () {
  "use strict";
  var form = document.getElementById("answer-form");
  var answer = form && form.querySelector("[data-casino-shape]");
  if (!answer) return;
  var shape = answer.dataset.casinoShape;
  var list = document.querySelector("[data-casino-items]");
  var items = list ? Array.prototype.slice.call(list.querySelectorAll("[data-item]")) : [];
  var picked = answer.querySelector("[data-casino-picked]");

  // No letter key answers a Casino question (Tab, Space and Enter do): the shell's switch
  // for them would switch nothing, and its "off" would hide this page's true keys legend.
  var keysSwitch = document.querySelector("[data-shortcut-switch]");
  if (keysSwitch) keysSwitch.hidden = true;
  var tablePage = document.querySelector(".table-page");
  if (tablePage) tablePage.classList.remove("keys-off");

  function andList(parts) {
    if (parts.length <= 1) return parts.join("");
    return parts.slice(0, -1).join(", ") + " and " + parts[parts.length - 1];
  }
  function cap(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }
  function chosen() {
    return items.filter(function (item) {
      return item.getAttribute("aria-pressed") === "true";
    });
  }
  function press(item, on) {
    item.setAttribute("aria-pressed", on ? "true" : "false");
    item.classList.toggle("picked", on);
  }
  function sayPicked(prefix) {
    var names = chosen().map(function (item) {
      return item.dataset.words;
    });
    picked.textContent = names.length ? prefix + andList(names) + "." : "Nothing picked yet.";
  }
  function enableItems(onToggle) {
    items.forEach(function (item) {
      item.disabled = false;
      item.addEventListener("click", function () {
        press(item, item.getAttribute("aria-pressed") !== "true");
        onToggle(item);
      });
    });
  }

  // Enter answers from anywhere in the form; on a button of the form (Add, Remove, Takes
  // nothing) it presses that button, as everywhere. The shell's keys (js/table.js) never see
  // it: Enter there answers nothing but a stake.
  form.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.ctrlKey || event.metaKey || event.altKey) return;
    var at = event.target;
    event.stopPropagation();
    if (at.tagName === "TEXTAREA" || (at.tagName === "BUTTON" && at.type === "button")) return;
    event.preventDefault();
    if (form.requestSubmit) form.requestSubmit();
    else form.submit();
  });

  if (shape === "verdict") {
    var reasons = answer.querySelector("[data-casino-reasons]");
    var showReasons = function () {
      var verdict = form.querySelector('input[name="legal"]:checked');
      var illegal = !!verdict && verdict.value === "illegal";
      reasons.disabled = !illegal;
      reasons.classList.toggle("off", !illegal);
      Array.prototype.forEach.call(reasons.querySelectorAll("input"), function (input) {
        input.required = illegal;
      });
    };
    form.addEventListener("change", showReasons);
    showReasons();
  }

  if (shape === "takes") {
    var ticks = answer.querySelector("[data-casino-ticks]");
    var nothing = answer.querySelector("[data-casino-nothing]");
    var tickOf = function (item) {
      return ticks.querySelector('input[value="' + item.dataset.item + '"]');
    };
    items.forEach(function (item) {
      press(item, tickOf(item) && tickOf(item).checked);
    });
    ticks.hidden = true;
    answer.querySelector("[data-casino-picker]").hidden = false;
    var sayTakes = function () {
      if (nothing.getAttribute("aria-pressed") === "true") picked.textContent = "It takes nothing.";
      else sayPicked("It takes ");
    };
    enableItems(function (item) {
      tickOf(item).checked = item.getAttribute("aria-pressed") === "true";
      nothing.setAttribute("aria-pressed", "false");
      sayTakes();
    });
    nothing.addEventListener("click", function () {
      var on = nothing.getAttribute("aria-pressed") !== "true";
      nothing.setAttribute("aria-pressed", on ? "true" : "false");
      if (on) {
        items.forEach(function (item) {
          press(item, false);
          tickOf(item).checked = false;
        });
      }
      sayTakes();
    });
    sayTakes();
    form.addEventListener("submit", function (event) {
      if (chosen().length || nothing.getAttribute("aria-pressed") === "true") return;
      event.preventDefault();
      picked.textContent = "Pick what the card takes on the table, or press Takes nothing.";
    });
  }

  if (shape === "plays") {
    var typed = answer.querySelector("[data-casino-typed]");
    var composer = answer.querySelector("[data-casino-composer]");
    var plays = answer.querySelector("[data-casino-plays]");
    var empty = answer.querySelector("[data-casino-empty]");
    var how = answer.querySelector("[data-casino-how]");
    var valueBox = answer.querySelector("[data-casino-value]");
    var value = valueBox.querySelector("select");
    var problem = answer.querySelector("[data-casino-problem]");
    typed.hidden = true;
    typed.querySelector("textarea").disabled = true;
    composer.hidden = false;
    Array.prototype.forEach.call(plays.querySelectorAll("input"), function (input) {
      input.disabled = false;
    });
    var kind = function () {
      var on = composer.querySelector("[data-casino-kind]:checked");
      return on ? on.value : "take";
    };
    var HOW = {
      take: "Pick on the table the items the play takes.",
      build: "Pick on the table the build it goes on and the cards it builds with, then say the value.",
      trail: "A trail takes nothing and builds nothing: nothing to pick."
    };
    var PREFIX = { take: "It takes ", build: "It builds with ", trail: "" };
    var showKind = function () {
      var k = kind();
      how.textContent = HOW[k];
      valueBox.hidden = k !== "build";
      if (k === "trail") {
        items.forEach(function (item) {
          press(item, false);
        });
      }
      items.forEach(function (item) {
        item.disabled = k === "trail";
      });
      sayPicked(PREFIX[k]);
      if (k === "trail") picked.textContent = "";
    };
    enableItems(function () {
      problem.textContent = "";
      sayPicked(PREFIX[kind()]);
    });
    composer.addEventListener("change", function (event) {
      if (event.target.hasAttribute("data-casino-kind")) showKind();
    });
    // The play in the written grammar (what the server reads) and in words.
    var compose = function () {
      var k = kind();
      var on = chosen();
      if (k === "trail") return { text: "trail", words: "Trail", sign: "trail" };
      if (!on.length) return null;
      var keys = on.map(function (item) {
        return item.dataset.item;
      });
      var names = on.map(function (item) {
        return item.dataset.words;
      });
      if (k === "take") {
        return {
          text: "take " + keys.join(" "),
          words: "Take " + andList(names),
          sign: "take " + keys.slice().sort().join(" ")
        };
      }
      var base = on.filter(function (item) {
        return item.classList.contains("build");
      })[0];
      var rest = on.filter(function (item) {
        return item !== base;
      });
      var text = "build " + value.value;
      var words = "Build " + value.value;
      if (base) {
        // A dealer's words (trainer/games/casino/words.py, on_build_words): the build
        // raised to a new value, or added to at its own.
        text += " on " + base.dataset.item;
        words =
          base.dataset.value === value.value
            ? "Add to the build of " + value.value + " (" + base.dataset.cards + ")"
            : "Raise the " + base.dataset.value + " build (" + base.dataset.cards + ") to " + value.value;
      }
      if (rest.length) {
        text +=
          " with " +
          rest
            .map(function (item) {
              return item.dataset.item;
            })
            .join(" ");
        words +=
          (base ? "," : "") +
          " with " +
          andList(
            rest.map(function (item) {
              return item.dataset.words;
            })
          );
      }
      var restKeys = rest
        .map(function (item) {
          return item.dataset.item;
        })
        .sort();
      return {
        text: text,
        words: words,
        sign: ["build", value.value, base ? base.dataset.item : "", restKeys.join(" ")].join("|")
      };
    };
    var listed = function () {
      return Array.prototype.map.call(plays.querySelectorAll("li"), function (li) {
        return li.dataset.sign || li.querySelector("input").value;
      });
    };
    var showEmpty = function () {
      empty.hidden = plays.children.length > 0;
    };
    var addPlay = function (play) {
      var li = document.createElement("li");
      li.dataset.sign = play.sign;
      var said = document.createElement("span");
      said.textContent = play.words;
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = "plays";
      input.value = play.text;
      var remove = document.createElement("button");
      remove.type = "button";
      remove.setAttribute("data-casino-remove", "");
      remove.setAttribute("aria-label", "Remove: " + play.words);
      remove.textContent = "Remove";
      li.appendChild(said);
      li.appendChild(document.createTextNode(" "));
      li.appendChild(input);
      li.appendChild(remove);
      plays.appendChild(li);
      showEmpty();
    };
    answer.querySelector("[data-casino-add]").addEventListener("click", function () {
      var play = compose();
      if (!play) {
        problem.textContent = "Pick on the table what the play " + (kind() === "take" ? "takes" : "builds with") + " first.";
        return;
      }
      if (listed().indexOf(play.sign) !== -1) {
        problem.textContent = cap(play.words) + " is listed already.";
        return;
      }
      addPlay(play);
      problem.textContent = "Added: " + play.words + ".";
      items.forEach(function (item) {
        press(item, false);
      });
      sayPicked(PREFIX[kind()]);
      if (kind() === "trail") picked.textContent = "";
    });
    plays.addEventListener("click", function (event) {
      var remove = event.target.closest("[data-casino-remove]");
      if (!remove) return;
      var li = remove.closest("li");
      var words = li.querySelector("span").textContent;
      li.remove();
      showEmpty();
      problem.textContent = "Removed: " + words + ".";
      composer.querySelector("[data-casino-add]").focus();
    });
    showKind();
    showEmpty();
  }
})();
