// A section marked data-live-section keeps itself up to date while work goes on behind it
// (a report being produced): every few seconds it fetches its own page again and takes
// that page's copy of the section. When the new copy is no longer live the polling stops
// and the page's [data-live-news] live region says so once. The page never reloads under
// the reader, as the timed meta refresh this replaces did (WCAG 2.2.1).
(function () {
  "use strict";
  var EVERY_MS = 5000;
  var GIVE_UP_AFTER = 120; // about ten minutes; the section's link still checks by hand
  var section = document.querySelector("[data-live-section][id]");
  var news = document.querySelector("[data-live-news]");
  if (!section || !window.fetch || !window.DOMParser) return;
  var asked = 0;

  function ask() {
    asked += 1;
    // A background check, not activity: it does not keep an idle session alive.
    fetch(window.location.href, {
      credentials: "same-origin",
      headers: { Accept: "text/html", "X-Shoe-School-Poll": "1" },
    })
      .then(function (response) {
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        var fresh = html && new DOMParser().parseFromString(html, "text/html").getElementById(section.id);
        if (fresh) {
          var done = section.dataset.liveDone;
          section.replaceWith(fresh);
          section = fresh;
          if (!fresh.hasAttribute("data-live-section")) {
            if (news && done) news.textContent = done;
            return;
          }
        }
        if (asked < GIVE_UP_AFTER) window.setTimeout(ask, EVERY_MS);
      })
      .catch(function () {
        if (asked < GIVE_UP_AFTER) window.setTimeout(ask, EVERY_MS);
      });
  }
  window.setTimeout(ask, EVERY_MS);
})();
