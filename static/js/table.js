// The table works without this script (plain forms); it adds chips, the chip rack,
// keyboard shortcuts and running clocks. The question vocabulary comes from the form's data-vocabulary
// (written by the server from the engine's enums), never from words spelt out here.
(function () {
  "use strict";
  var form = document.getElementById("answer-form");
  var amount = document.getElementById("amount");
  var chips = document.querySelector("[data-chips]");
  var vocabulary = { moves_no_money: [], pays_in_chips: [] };
  if (form && form.dataset.vocabulary) {
    try {
      vocabulary = JSON.parse(form.dataset.vocabulary);
    } catch (error) {
      // Without it no action empties the amount; the server still checks every answer.
    }
  }

  function movesNoMoney(action) {
    return vocabulary.moves_no_money.indexOf(action) !== -1;
  }

  function toCents(text) {
    var match = /^\s*(\d+)(?:\.(\d{1,2}))?\s*$/.exec(text || "");
    if (!match) return 0;
    return parseInt(match[1], 10) * 100 + parseInt(((match[2] || "") + "00").slice(0, 2), 10);
  }

  function fromCents(cents) {
    var text = String(cents % 100);
    return Math.floor(cents / 100) + "." + (text.length < 2 ? "0" + text : text);
  }

  if (chips && amount) {
    chips.hidden = false;
    chips.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) return;
      if (button.hasAttribute("data-clear")) {
        amount.value = "";
      } else if (button.dataset.chip) {
        amount.value = fromCents(toCents(amount.value) + toCents(button.dataset.chip));
      }
    });
  }

  // The chip rack: the stack is the answer. The count fields (the answer without this
  // script) give way to the rack; each chip chosen goes on the stack drawn on the felt and
  // into one hidden `chips` field. A refused answer comes back with its counts: they seed it.
  var rackForm = document.querySelector("[data-rack-form]");
  var stack = [];
  var MOST_CHIPS = 200;
  function chipCents(values) {
    return values.reduce(function (sum, value) {
      return sum + toCents(value);
    }, 0);
  }
  function chipColour(value) {
    var button = rackForm.querySelector('[data-rack-chip="' + value + '"]');
    var found = button && /\bchip-(\w+)/.exec(button.className.replace("rack-chip", ""));
    return found ? found[1] : "grey";
  }
  function showStack() {
    var inputs = rackForm.querySelector("[data-stack-inputs]");
    var said = rackForm.querySelector("[data-stack-said]");
    var drawn = document.querySelector("[data-stack-drawn]");
    inputs.textContent = "";
    stack.forEach(function (value) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = "chips";
      input.value = value;
      inputs.appendChild(input);
    });
    var total = fromCents(chipCents(stack));
    var count = stack.length + " chip" + (stack.length === 1 ? "" : "s");
    said.textContent = stack.length
      ? "Your stack: " + stack.join(", ") + " — " + total + " in " + count
      : "Your stack: no chips yet";
    if (drawn) {
      var pile = drawn.querySelector(".paid-stack");
      pile.textContent = "";
      stack.forEach(function (value) {
        var chip = document.createElement("span");
        chip.className = "mini-chip chip-" + chipColour(value);
        chip.textContent = value;
        pile.appendChild(chip);
      });
      drawn.querySelector("[data-stack-caption]").textContent = stack.length
        ? "Your stack: " + total + " in " + count
        : "";
      drawn.hidden = !stack.length;
      showInFelt(drawn);
    }
  }
  // On a phone the felt scrolls within itself (table.css): the stack being built is kept
  // in its view, as the dealer watches it grow beside the bet.
  function showInFelt(element) {
    var within = element.closest(".felt");
    if (!within || element.hidden || window.getComputedStyle(within).position !== "sticky") {
      return;
    }
    var seen = within.getBoundingClientRect();
    var box = element.getBoundingClientRect();
    if (box.bottom > seen.bottom) within.scrollTop += box.bottom - seen.bottom + 8;
    else if (box.top < seen.top) within.scrollTop -= seen.top - box.top + 8;
  }
  function addChip(value) {
    if (stack.length < MOST_CHIPS) stack.push(value);
    showStack();
  }
  function undoChip() {
    stack.pop();
    showStack();
  }
  function clearStack() {
    stack = [];
    showStack();
  }
  if (rackForm) {
    var counts = rackForm.querySelector("[data-chip-counts]");
    Array.prototype.forEach.call(counts.querySelectorAll("input"), function (input) {
      var many = /^\d+$/.test(input.value) ? parseInt(input.value, 10) : 0;
      for (var i = 0; i < many && stack.length < MOST_CHIPS; i += 1) {
        stack.push(input.name.slice("count-".length));
      }
      input.disabled = true;
    });
    stack.sort(function (a, b) {
      return toCents(b) - toCents(a);
    });
    counts.hidden = true;
    rackForm.querySelector("[data-rack]").hidden = false;
    showStack();
    rackForm.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) return;
      if (button.dataset.rackChip) addChip(button.dataset.rackChip);
      else if (button.hasAttribute("data-undo")) undoChip();
      else if (button.hasAttribute("data-clear-stack")) clearStack();
    });
    // A payout taken or pushed is money, not chips: it sends the stack's worth as the
    // amount (none for a push), and no chips.
    form.addEventListener("submit", function () {
      var chosen = form.querySelector('input[name="action"]:checked');
      if (!chosen || (vocabulary.pays_in_chips || []).indexOf(chosen.value) !== -1) return;
      Array.prototype.forEach.call(form.querySelectorAll('input[name="chips"]'), function (input) {
        input.disabled = true;
      });
      if (!movesNoMoney(chosen.value) && stack.length) {
        var worth = document.createElement("input");
        worth.type = "hidden";
        worth.name = "amount";
        worth.value = fromCents(chipCents(stack));
        form.appendChild(worth);
      }
    });
  }

  // A push moves no money, so choosing it empties the amount (or the stack).
  if (form) {
    form.addEventListener("change", function (event) {
      if (event.target.name === "action" && movesNoMoney(event.target.value)) {
        if (amount) amount.value = "";
        if (rackForm) clearStack();
      }
    });
  }

  // The trainee may turn the letter keys off (WCAG 2.1.4); the choice is kept in this
  // browser. Where storage is refused the keys stay on and the switch still works.
  var STORED = "shoeschool.letterKeys";
  var keysOn = true;
  try {
    keysOn = window.localStorage.getItem(STORED) !== "off";
  } catch (error) {
    // Storage refused (a private window): the default stands.
  }
  var page = document.querySelector(".table-page");
  var keysSwitch = document.getElementById("letter-keys");
  function applyKeys() {
    if (page) page.classList.toggle("keys-off", !keysOn);
  }
  if (keysSwitch) {
    keysSwitch.checked = keysOn;
    keysSwitch.closest("[data-shortcut-switch]").hidden = false;
    keysSwitch.addEventListener("change", function () {
      keysOn = keysSwitch.checked;
      applyKeys();
      try {
        window.localStorage.setItem(STORED, keysOn ? "on" : "off");
      } catch (error) {
        // Not remembered; it holds for this page.
      }
    });
  }
  applyKeys();

  var question = document.getElementById("q-prompt");
  // The house rules and the felt are read while answering: from them the letter and
  // number keys still answer (Enter and Space keep opening and closing the house rules).
  // Escape brings the focus back to the question from anywhere on the page.
  var houseRules = document.querySelector(".house-rules-box");
  var keysHint = document.querySelector("[data-keys-hint]");
  function hint(text) {
    if (keysHint && keysHint.textContent !== text) keysHint.textContent = text;
  }
  function typesCharacters(element) {
    var tag = element && element.tagName;
    if (tag === "INPUT") return element.type !== "checkbox" && element.type !== "radio";
    return tag === "TEXTAREA" || tag === "SELECT";
  }
  document.addEventListener("keydown", function (event) {
    if (!form || event.ctrlKey || event.metaKey || event.altKey) return;
    var at = document.activeElement;
    if (event.key === "Escape" && question) {
      if (houseRules) houseRules.open = false;
      if (!question.hasAttribute("tabindex")) question.setAttribute("tabindex", "-1");
      question.focus();
      hint("");
      return;
    }
    if (!keysOn) return;
    var key = event.key.length === 1 ? event.key.toUpperCase() : event.key;
    // Shortcuts answer only from the question: its form, its heading, nothing focused, or
    // the house rules. A letter typed on a link of the top bar or elsewhere on the page
    // answers nothing, and says why.
    var onQuestion = !at || at === document.body || at === question || form.contains(at);
    var reading = document.querySelector(".table-page .felt");
    var onRules =
      ((houseRules && houseRules.contains(at)) || (reading && reading === at)) &&
      key.length === 1 &&
      key !== " ";
    if (!onQuestion && !onRules) {
      var answers =
        key.length === 1 && (/[0-9.]/.test(key) || form.querySelector('[data-key="' + key + '"]'));
      if (answers && !typesCharacters(at)) {
        hint("The keys answer the question when it has the focus: press Esc to go back to it.");
      }
      return;
    }
    hint("");
    if (onRules && amount && /^[0-9.]$/.test(key)) {
      // A digit goes to the amount, where it is typed (the focus moves before it lands).
      amount.focus();
      return;
    }
    if (rackForm && key === "Backspace") {
      undoChip();
      event.preventDefault();
      return;
    }
    // Enter hands the stack over from anywhere on the question, a focused rack chip too
    // (clicked chips keep the focus: an Enter after them must not add one more). Space
    // adds a focused chip, as it presses any button.
    if (rackForm && key === "Enter") {
      event.preventDefault();
      if (form.requestSubmit) form.requestSubmit();
      else form.submit();
      return;
    }
    // Enter settles a stake; it never picks a procedure answer (each has its own key),
    // even on a button that has the focus.
    if (key === "Enter" && !amount) {
      event.preventDefault();
      return;
    }
    if (key === "X" && amount) {
      amount.value = "";
      amount.focus();
      event.preventDefault();
      return;
    }
    var target = form.querySelector('[data-key="' + key + '"]');
    if (!target) return;
    event.preventDefault();
    if (target.type === "radio") {
      target.checked = true;
      target.dispatchEvent(new Event("change", { bubbles: true }));
      if (amount && !movesNoMoney(target.value)) amount.focus();
    } else if (target.dataset.rackChip) {
      // A key adds its chip without moving the focus (keys keep working from where it was).
      addChip(target.dataset.rackChip);
    } else if (target.hasAttribute("data-undo")) {
      undoChip();
    } else if (target.hasAttribute("data-clear-stack")) {
      clearStack();
    } else {
      target.click();
    }
  });

  // Whole seconds as core.durations.whole_seconds_text writes them: "59 s", "1 min 5 s",
  // "1 h 39 min 59 s" (the parts that are not zero).
  function durationText(total) {
    var hours = Math.floor(total / 3600);
    var minutes = Math.floor((total % 3600) / 60);
    var seconds = total % 60;
    var parts = [];
    if (hours) parts.push(hours + " h");
    if (minutes) parts.push(minutes + " min");
    if (seconds || !(hours || minutes)) parts.push(seconds + " s");
    return parts.join(" ");
  }

  // A phone: the felt stays at the top (table.css); the box in question is scrolled into
  // it, and the page to the question just below it, so both are in view.
  var felt = document.querySelector(".table-page .felt");
  var questionCard = document.querySelector(".table-page .question");
  function keepInView() {
    if (!felt || !questionCard || window.getComputedStyle(felt).position !== "sticky") return;
    // The box in question whole, or its hand in question when the box is taller than the felt.
    var current = felt.querySelector(".box.current");
    if (current && current.offsetHeight > felt.clientHeight) {
      current = current.querySelector(".hand.current") || current;
    }
    if (current) {
      var inFelt = current.getBoundingClientRect().top - felt.getBoundingClientRect().top;
      felt.scrollTop += inFelt - 8;
    }
    var below = questionCard.getBoundingClientRect().top + window.scrollY - felt.offsetHeight;
    window.scrollTo(0, below - 8);
  }
  keepInView();

  function tick(element) {
    var seconds = parseInt(element.dataset.seconds, 10);
    var value = element.querySelector(".timer-value");
    var timeBox = element.dataset.timer === "box";
    setInterval(function () {
      seconds -= 1;
      value.textContent = durationText(Math.max(seconds, 0));
      element.classList.toggle("low", seconds <= 10);
      element.classList.toggle("over", seconds <= 0);
      // When the time box ends the server submits the attempt on the next request.
      if (timeBox && seconds === 0) window.location.reload();
    }, 1000);
  }
  Array.prototype.forEach.call(document.querySelectorAll("[data-timer]"), tick);
})();
