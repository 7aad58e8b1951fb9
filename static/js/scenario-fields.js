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
})();
