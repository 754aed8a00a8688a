// A student's waiting page in a class: it asks the server (a long poll) until the student's table is formed,
// then opens their seat. It keeps the student's own class token in this browser's storage under the class
// code, for the join page (join.js): typing the class code again brings them back here without a name.
(function () {
  "use strict";
  var page = document.getElementById("waiting");
  var token = page.dataset.token, status = document.getElementById("status");
  var retry = 500;
  try { window.localStorage.setItem("tabletop_edu.seat." + page.dataset.code, token); } catch (error) { /* off */ }

  function ask() {
    fetch("/c/" + token + "/seat", {method: "POST", headers: {"Content-Type": "application/json"}, body: "{}",
                                    credentials: "same-origin", cache: "no-store"})
      .then(function (response) { return response.json(); })
      .then(function (answer) {
        retry = 500;
        if (answer.seat) {
          status.textContent = page.dataset.opening;
          window.location.replace(answer.seat);
          return;
        }
        window.setTimeout(ask, answer.waiting ? 100 : 2000);
      })
      .catch(function () {
        status.textContent = page.dataset.retry;
        window.setTimeout(ask, retry);
        retry = Math.min(retry * 2, 5000);
      });
  }
  ask();
})();
