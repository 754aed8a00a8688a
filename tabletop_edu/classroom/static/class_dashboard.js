// The teacher's class dashboard: the board asked for every two seconds with the teacher's token (read from the
// address's fragment, kept in this tab's session storage, taken off the address bar), and the levers sent to the
// class API. The board's HTML is drawn by the server with every name escaped; messages are set as text.
(function () {
  "use strict";
  var page = document.getElementById("class-dashboard");
  var code = page.dataset.code, lang = page.dataset.lang;
  var board = document.getElementById("board"), message = document.getElementById("dashboard-message");
  var key = "tabletop_edu.teacher", token = null;
  var fragment = /(?:^#|&)token=([A-Za-z0-9_\-]+)/.exec(location.hash);
  try {
    if (fragment) { window.sessionStorage.setItem(key, fragment[1]); }
    token = window.sessionStorage.getItem(key);
  } catch (error) { token = fragment ? fragment[1] : null; }
  if (fragment) { history.replaceState(null, "", location.pathname + location.search); }
  if (!token) { message.textContent = page.dataset.missing; return; }

  function say(text, isError) {
    message.textContent = text || "";
    message.className = "message" + (isError ? " error" : "");
  }

  function api(method, what, body) {
    return fetch("/api/classes/" + code + "/" + what + (method === "GET" ? "?lang=" + lang : ""), {
      method: method, cache: "no-store",
      headers: {"Authorization": "Bearer " + token, "Content-Type": "application/json"},
      body: method === "GET" ? undefined : JSON.stringify(body || {})
    });
  }

  function refusal(response) {
    return response.json().then(function (answer) {
      say((lang === "fr" && answer.fr) || answer.message || String(response.status), true);
    }, function () { say(String(response.status), true); });
  }

  function refresh() {
    api("GET", "board").then(function (response) {
      if (!response.ok) { return refusal(response); }
      return response.json().then(function (answer) {
        board.innerHTML = answer.html;
        board.dataset.round = String(answer.overview.round);
        board.dataset.refreshed = String(Number(board.dataset.refreshed || 0) + 1);
      });
    }).catch(function () { /* the server is away: the next refresh tries again */ });
  }

  function command(what, body) {
    say("");
    return api("POST", what, body).then(function (response) {
      if (!response.ok) { return refusal(response); }
      refresh();
    });
  }

  function download() {
    api("GET", "download").then(function (response) {
      if (!response.ok) { return refusal(response); }
      return response.blob().then(function (blob) {
        var link = document.createElement("a");
        link.href = URL.createObjectURL(blob);
        link.download = "class-" + code + ".zip";
        document.body.appendChild(link);
        link.click();
        link.remove();
      });
    });
  }

  document.addEventListener("click", function (event) {
    var lever = event.target.closest("button[data-command]");
    if (!lever) { return; }
    var what = lever.dataset.command;
    if (what === "download") { download(); return; }
    if (what === "start_round") { command(what, {regroup: document.getElementById("regroup").value}); return; }
    if (what === "note_clear") {
      document.getElementById("note-text").value = "";
      command("note", {text: ""});
      return;
    }
    var body = {};
    if (lever.dataset.room) { body.room = lever.dataset.room; }
    if (lever.dataset.seat) { body.seat = Number(lever.dataset.seat); }
    if (lever.dataset.student) { body.student = lever.dataset.student; }
    if (lever.dataset.seconds) { body.seconds = Number(lever.dataset.seconds); }
    command(what, body);
  });
  document.getElementById("note-form").addEventListener("submit", function (event) {
    event.preventDefault();
    command("note", {text: document.getElementById("note-text").value});
  });
  refresh();
  setInterval(refresh, 2000);
})();
