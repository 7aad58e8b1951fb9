// A live class session's page: polls its small status (a seat about once a second, the
// instructor's projector page twice a second: its one client, data-live-period) and redraws
// the page when the session moves on (its version changes: a question opened, closed,
// shown; a pause; the end). Between, the instructor's counts and list of who joined are
// updated in place. No new server: plain polling (docs/architecture.md, Live class sessions).
(function () {
  "use strict";
  var root = document.querySelector("[data-live-status]");
  if (!root) { return; }
  var url = root.getAttribute("data-live-status");
  var version = root.getAttribute("data-live-version");
  var PERIOD = parseInt(root.getAttribute("data-live-period") || "1000", 10);
  var busy = false;
  // A button's form sent (close, reveal, next, end...): the page is on its way to the next
  // one, and a reload now would cancel that navigation and keep the old page.
  var leaving = false;
  document.addEventListener("submit", function () { leaving = true; });

  function put(status) {
    document.querySelectorAll("[data-live-field]").forEach(function (el) {
      var key = el.getAttribute("data-live-field");
      if (status[key] !== undefined && el.textContent !== String(status[key])) {
        el.textContent = String(status[key]);
      }
    });
    var list = document.querySelector("[data-live-names]");
    if (list && status.names) {
      var now = Array.prototype.map.call(list.children, function (li) { return li.textContent; });
      if (now.join("\n") !== status.names.join("\n")) {
        list.textContent = "";
        status.names.forEach(function (name) {
          var li = document.createElement("li");
          li.textContent = name;
          list.appendChild(li);
        });
      }
    }
  }

  function poll() {
    if (busy || leaving) { return; }
    busy = true;
    fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" }, cache: "no-store" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (status) {
        busy = false;
        if (!status || leaving) { return; }
        if (String(status.version) !== version) {
          // The session moved on: the page as it now stands (an answer half typed is
          // dropped only because the question closed under it).
          window.location.reload();
          return;
        }
        put(status);
      })
      .catch(function () { busy = false; });
  }

  // The clock of an open question, counted here from the seconds the page was drawn with.
  var clock = document.querySelector("[data-live-clock][data-running]");
  if (clock) {
    var start = Date.now() - 1000 * parseInt(clock.getAttribute("data-live-clock"), 10);
    setInterval(function () {
      var s = Math.floor((Date.now() - start) / 1000);
      clock.textContent = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
    }, 500);
  }
  setInterval(poll, PERIOD);
})();
