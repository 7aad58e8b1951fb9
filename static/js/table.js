// The table works without this script (plain forms); it adds chips, keyboard shortcuts
// and running clocks. The question vocabulary comes from the form's data-vocabulary
// (written by the server from the engine's enums), never from words spelt out here.
(function () {
  "use strict";
  var form = document.getElementById("answer-form");
  var amount = document.getElementById("amount");
  var chips = document.querySelector("[data-chips]");
  var vocabulary = { moves_no_money: [] };
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

  // A push moves no money, so choosing it empties the amount.
  if (form) {
    form.addEventListener("change", function (event) {
      if (event.target.name === "action" && movesNoMoney(event.target.value) && amount) {
        amount.value = "";
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
  document.addEventListener("keydown", function (event) {
    if (!form || !keysOn || event.ctrlKey || event.metaKey || event.altKey) return;
    // Shortcuts answer only from the question: its form, its heading, or nothing focused.
    // A letter typed on a link of the top bar or elsewhere on the page answers nothing.
    var at = document.activeElement;
    if (at && at !== document.body && at !== question && !form.contains(at)) return;
    var key = event.key.length === 1 ? event.key.toUpperCase() : event.key;
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
    } else {
      target.click();
    }
  });

  function tick(element) {
    var seconds = parseInt(element.dataset.seconds, 10);
    var value = element.querySelector(".timer-value");
    var timeBox = element.dataset.timer === "box";
    setInterval(function () {
      seconds -= 1;
      value.textContent = Math.max(seconds, 0) + " s";
      element.classList.toggle("low", seconds <= 10);
      element.classList.toggle("over", seconds <= 0);
      // When the time box ends the server submits the attempt on the next request.
      if (timeBox && seconds === 0) window.location.reload();
    }, 1000);
  }
  Array.prototype.forEach.call(document.querySelectorAll("[data-timer]"), tick);
})();
