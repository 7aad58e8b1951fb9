// The practical sheet's stopwatches (templates/audit/pit/trainee_practical.html): each
// timed task's Start/Stop button runs a stopwatch whose time, when stopped, goes into the
// task's seconds field (which the evaluator may also type or correct). Buttons are native,
// so Space and Enter work; the stopped time is said in the task's status line.
(function () {
  "use strict";
  function setUp(box) {
    var face = box.querySelector("[data-stopwatch-face]");
    var toggle = box.querySelector("[data-stopwatch-toggle]");
    var reset = box.querySelector("[data-stopwatch-reset]");
    var field = box.querySelector("input[type=number]");
    var status = box.querySelector("[data-stopwatch-status]");
    var target = Number(box.getAttribute("data-target"));
    var label = toggle.getAttribute("aria-label").replace(/^Start the stopwatch: /, "");
    var started = null;
    var timer = null;
    function seconds() {
      return started === null ? 0 : (performance.now() - started) / 1000;
    }
    function show(value) {
      face.textContent = value.toFixed(1) + " s";
    }
    function stop() {
      var value = Math.round(seconds() * 10) / 10;
      window.clearInterval(timer);
      timer = null;
      started = null;
      show(value);
      field.value = value.toFixed(1);
      toggle.textContent = "Start";
      toggle.setAttribute("aria-label", "Start the stopwatch: " + label);
      status.textContent = "Stopped at " + value.toFixed(1) + " s: " +
        (value < target ? "under" : "not under") + " the target of " + target + " s.";
    }
    toggle.addEventListener("click", function () {
      if (timer !== null) {
        stop();
        return;
      }
      started = performance.now();
      timer = window.setInterval(function () { show(seconds()); }, 100);
      toggle.textContent = "Stop";
      toggle.setAttribute("aria-label", "Stop the stopwatch: " + label);
      status.textContent = "Running.";
    });
    reset.addEventListener("click", function () {
      if (timer !== null) {
        window.clearInterval(timer);
        timer = null;
      }
      started = null;
      show(0);
      field.value = "";
      toggle.textContent = "Start";
      toggle.setAttribute("aria-label", "Start the stopwatch: " + label);
      status.textContent = "Reset.";
    });
  }
  document.querySelectorAll("[data-stopwatch]").forEach(setUp);
})();
