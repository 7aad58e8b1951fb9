// The game-fields editor (templates/trainer/workspace/scenario_fields.html): a field that one
// choice decides (data-shown-by names that field, data-shown-for its values) is shown only
// while that choice asks for it; hidden, it is left as it is and the game ignores it. Without
// this script every field shows, each saying what it is for.
(function () {
  "use strict";
  var form = document.querySelector("form.game-fields");
  if (!form) return;
  var ruled = Array.prototype.slice.call(form.querySelectorAll("[data-shown-by]"));

  function valueOf(name) {
    var field = form.elements.namedItem(name);
    return field ? field.value : "";
  }
  function wrapperOf(input) {
    return input.closest(".field");
  }
  function shown(input) {
    var by = input.getAttribute("data-shown-by");
    var wanted = (input.getAttribute("data-shown-for") || "").split(" ");
    if (wanted.indexOf(valueOf(by)) === -1) return false;
    // The field deciding is itself shown (a penalty's facts only for "Rule on this").
    var decider = form.elements.namedItem(by);
    return !decider || !decider.hasAttribute || !decider.hasAttribute("data-shown-by") || shown(decider);
  }
  function update() {
    ruled.forEach(function (input) {
      var wrapper = wrapperOf(input);
      if (wrapper) wrapper.hidden = !shown(input);
    });
  }
  form.addEventListener("change", update);
  update();

  // The card picker: it follows the cards field last entered (placed just under it) and
  // writes into it the words typed by hand ("10♦"): a rank, then a suit adds the card.
  var picker = form.querySelector("[data-fields-picker]");
  if (!picker) return;
  var target = null;
  var rank = null;
  var said = picker.querySelector("[data-picker-target]");
  var ranks = Array.prototype.slice.call(picker.querySelectorAll("[data-rank]"));
  var suits = Array.prototype.slice.call(picker.querySelectorAll("[data-suit]"));
  function labelOf(input) {
    var label = form.querySelector('label[for="' + input.id + '"]');
    return label ? label.textContent.replace(/:\s*$/, "") : "the field";
  }
  function chooseRank(value) {
    rank = value;
    ranks.forEach(function (button) {
      button.setAttribute("aria-pressed", button.dataset.rank === value ? "true" : "false");
    });
    suits.forEach(function (button) {
      button.disabled = value === null;
    });
  }
  form.addEventListener("focusin", function (event) {
    var input = event.target;
    if (!input.hasAttribute || !input.hasAttribute("data-cards") || input === target) return;
    target = input;
    var wrapper = wrapperOf(input);
    if (wrapper) wrapper.parentNode.insertBefore(picker, wrapper.nextSibling);
    picker.hidden = false;
    said.textContent = "The picker adds to: " + labelOf(input) + ".";
    chooseRank(null);
  });
  ranks.forEach(function (button) {
    button.addEventListener("click", function () {
      chooseRank(button.dataset.rank);
    });
  });
  suits.forEach(function (button) {
    button.addEventListener("click", function () {
      if (!target || rank === null) return;
      var card = rank + button.dataset.suit;
      target.value = (target.value.trim() + " " + card).trim();
      said.textContent = "Added " + card + " to " + labelOf(target) + ".";
      chooseRank(null);
    });
  });
  picker.querySelector("[data-card-undo]").addEventListener("click", function () {
    if (!target) return;
    var cards = target.value.trim().split(/[\s,]+/).filter(Boolean);
    var last = cards.pop();
    target.value = cards.join(" ");
    said.textContent = last ? "Took back " + last + " from " + labelOf(target) + "." : "Nothing to take back.";
  });
})();
