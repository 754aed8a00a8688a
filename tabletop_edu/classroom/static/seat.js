// A seat's page (or the projector): a websocket to the class server, the table redrawn from each message,
// moves chosen by tapping one word at a time. Every text a person typed arrives escaped inside the table's
// HTML (built by the server from the seat's view); labels are set with textContent, never parsed as HTML.
// A phone's page survives its phone: it keeps the screen awake during the student's game, says "offline" in
// words as soon as the network goes, keeps a belief sent meanwhile and sends it on return, and reconnects when
// the network or the tab comes back.
(function () {
  "use strict";
  var app = document.getElementById("app");
  var words = JSON.parse(document.getElementById("words").textContent);
  var kind = app.dataset.kind, token = app.dataset.token, lang = app.dataset.lang, code = app.dataset.code;
  var keptKey = "tabletop_edu.seat." + code;  // this seat's own token, for the join page (join.js)
  var closeReasons = {4001: "class.room_closed", 4003: "class.link_expired", 4008: "class.flood_closed"};

  function keep(yes) {
    if (kind !== "seat") { return; }
    try {
      if (yes) { window.localStorage.setItem(keptKey, token); } else { window.localStorage.removeItem(keptKey); }
    } catch (error) { /* storage off: the teacher's link still works */ }
  }
  var table = document.getElementById("table"), moves = document.getElementById("moves");
  var statusLine = document.getElementById("status"), note = document.getElementById("message");
  var online = document.getElementById("online"), banner = document.getElementById("connection");
  var step = Number(app.dataset.step), socket = null, retry = 250, closedForGood = false, drawn = 0;
  var notice = false;  // a notice from the server (time's up) stays until the student taps again
  // A student who plays with the keyboard keeps the focus in the moves: the buttons tapped are replaced by the
  // next menu (or by nothing until the next turn), and the focus goes to the first button drawn next.
  // A button disabled or replaced loses the focus without giving it to anything else: only a focus that goes
  // somewhere outside the moves (the student's own Tab or tap) ends this.
  var focusInMoves = false;
  document.addEventListener("focusin", function (event) { focusInMoves = moves.contains(event.target); });
  // The words this student has tapped towards a move, kept when another seat's move redraws the table (on
  // Mafia de Cuba's floor a testimony lands every few seconds): the page asks the same words again at the new
  // step, and shows the table's own menu (`tableMenu`) only if they no longer start a move.
  var chosen = [], tableMenu = null;
  // The server's heartbeat, in ms: the page hears a beat from it each time, and a line silent for 3.5 beats
  // is dead (a phone's network gone), whatever the socket says: the page drops it and reconnects.
  var heartbeat = 1000 * Number(app.dataset.heartbeat || 0), lastHeard = Date.now();

  var countdownBox = document.getElementById("countdown");
  var deadline = null, countdownTimer = null;  // {step, ends (Date.now() ms)}: the time left for this seat's move
  var pendingBeliefs = {}, resent = {};  // beliefs sent while offline, by question: sent once the socket is back
  var connects = 0, retryTimer = null, offline = navigator.onLine === false;

  function setOnline(yes) {
    online.dataset.online = yes ? "1" : "0";
    online.textContent = yes ? words["class.online"] : offline ? words["class.offline_short"] : words["class.offline"];
  }

  // How the connection stands, shown on the whole page: "lost" greys the table and its buttons (nothing can
  // be tapped) under a banner until the socket is back; "expired" (the teacher gave the seat a new link) and
  // "closed" end the page: an expired link's table is removed, so no secret stays on the screen.
  function connection(how, text) {
    app.dataset.connection = how;
    banner.hidden = how === "ok";
    banner.textContent = how === "ok" ? "" : text;
    if (how !== "ok") { busy(true); }
    if (how === "expired") {
      table.replaceChildren();
      moves.replaceChildren();
      statusLine.textContent = words["class.link_expired"];
      statusLine.className = "status paused";
    }
  }

  function say(text, isError) {
    note.textContent = text || "";
    note.className = "message" + (isError ? " error" : "");
  }

  function busy(yes) {
    moves.setAttribute("aria-busy", yes ? "true" : "false");
    Array.prototype.forEach.call(moves.querySelectorAll("button"), function (button) { button.disabled = yes; });
  }

  function isOpen() { return socket !== null && socket.readyState === 1 && !offline; }

  // Nothing a student does is dropped without a word: a belief sent offline is kept (and sent on return), a
  // tap that cannot leave is refused in words.
  function send(message) {
    if (!isOpen()) {
      if (message.type === "belief") { keepBelief(message); } else { say(words["class.not_sent"], true); }
      return;
    }
    notice = false;
    busy(true);
    socket.send(JSON.stringify(message));
    awaitAnswer();
  }

  // A line that takes a tap and answers nothing (a classroom's Wi-Fi gone while the phone still thinks it is
  // on it) is dead: the page says the tap was not sent and reconnects, rather than wait for the heartbeat.
  var ANSWER_WAIT = 8000, answerTimer = null;
  function awaitAnswer() {
    var sent = Date.now();
    clearTimeout(answerTimer);
    answerTimer = setTimeout(function () {
      if (closedForGood || offline || lastHeard >= sent) { return; }
      drop(words["class.connection_lost"]);
      say(words["class.not_sent"], true);
      notice = true;  // stays until the student taps again
      again();
    }, ANSWER_WAIT);
  }

  function keepBelief(message) {
    pendingBeliefs[message.key] = message;
    var box = beliefsBox.querySelector("fieldset.belief[data-key='" + CSS.escape(message.key) + "']");
    if (box) { box.replaceWith(beliefQuestionNow(message.key)); }
  }

  function sendKeptBeliefs() {
    Object.keys(pendingBeliefs).forEach(function (key) {
      var message = pendingBeliefs[key];
      delete pendingBeliefs[key];
      resent[key] = true;
      send({type: "belief", step: message.step, key: message.key, percents: message.percents});
    });
  }

  function ask(words_) {
    chosen = words_;  // asked, not yet drawn: a table arriving meanwhile asks them again
    send({type: "menu", step: step, chosen: words_});
  }

  function play(action) {
    chosen = [];  // the move is made: its words are not asked again at the next table
    send({type: "move", step: step, action: action});
  }

  function button(label, className, onTap) {
    var element = document.createElement("button");
    element.type = "button";
    element.className = className;
    element.textContent = label;
    element.addEventListener("click", onTap);
    return element;
  }

  function drawMenu(menu) {
    moves.replaceChildren();
    moves.setAttribute("aria-busy", "false");
    drawn += 1;
    moves.dataset.drawn = String(drawn);  // a new menu each time: what a script waits for
    chosen = menu ? menu.chosen : [];
    tableMenu = null;
    if (!menu) { return; }
    if (menu.chosen.length) {
      var path = document.createElement("p");
      path.className = "path";
      path.textContent = menu.labels.join(" › ");
      moves.appendChild(path);
    }
    var options = document.createElement("div");
    options.className = "options";
    menu.options.forEach(function (option) {
      var words_ = menu.chosen.concat([option.word]);
      options.appendChild(button(option.label, option.action ? "move final" : "move", function () {
        if (option.action) { play(option.action); }
        else { ask(words_); }
      }));
    });
    moves.appendChild(options);
    var controls = document.createElement("div");
    controls.className = "controls";
    if (menu.complete) {
      controls.appendChild(button(words["class.play"] + words["class.colon"] + " " + menu.labels.join(" "),
        "move final complete",
        function () { play(menu.complete); }));
    }
    if (menu.chosen.length) {
      controls.appendChild(button("← " + words["class.back"], "back", function () {
        ask(menu.chosen.slice(0, -1));
      }));
    }
    moves.appendChild(controls);
    refocus();
  }

  // A button pressed is disabled until the answer (so it loses the focus): the focus comes back to the moves.
  function refocus() {
    var first = moves.querySelector("button:not(:disabled)");
    if (focusInMoves && first && !moves.contains(document.activeElement)) { first.focus(); }
  }

  // Belief questions: one row per option, -10/+10 buttons, the running total; "Send" once it makes 100 %.
  // A draft is kept per question while the table moves on, and dropped once the server has stored it.
  var beliefsBox = document.getElementById("beliefs"), debrief = document.getElementById("debrief");
  var drafts = {}, beliefStep = 0, beliefWordsNow = {}, questionsNow = {}, unfolded = {};
  //: A question with more answers than this is folded (Commissario's 21 cards): the table stays in view.
  var FOLD_AT = 6;

  function beliefQuestionNow(key) { return beliefQuestion(questionsNow[key], beliefWordsNow); }

  function beliefQuestion(question, beliefWords) {
    var box = document.createElement("fieldset");
    box.className = "belief";
    box.dataset.key = question.key;
    var legend = document.createElement("legend");
    legend.textContent = question.text;
    box.appendChild(legend);
    if (question.sent) {
      box.classList.add("sent");
      var done = document.createElement("p");
      done.className = "belief-sent";
      done.textContent = "✔ " + beliefWords["belief.answered"] + beliefWords["belief.colon"] + " " +
        question.options.map(function (option) { return option.label + " " + question.sent[option.option] + "\u00a0%"; })
          .join(", ");
      box.appendChild(done);
      return box;
    }
    if (pendingBeliefs[question.key]) {
      box.classList.add("kept");
      var kept = document.createElement("p");
      kept.className = "belief-kept";
      kept.textContent = beliefWords["belief.kept"];
      box.appendChild(kept);
      return box;
    }
    var draft = drafts[question.key];
    if (!draft) {
      draft = drafts[question.key] = {};
      question.options.forEach(function (option) { draft[option.option] = 0; });
    }
    var total = question.options.reduce(function (sum, option) { return sum + draft[option.option]; }, 0);
    function redraw() { box.replaceWith(beliefQuestion(question, beliefWords)); }
    var rows = box;
    if (question.options.length > FOLD_AT) {  // folded: its summary says how many answers and the total so far
      rows = document.createElement("details");
      rows.className = "belief-choices";
      rows.open = Boolean(unfolded[question.key]);
      rows.addEventListener("toggle", function () { unfolded[question.key] = rows.open; });
      var summary = document.createElement("summary");
      summary.textContent = beliefWords["belief.choices"].replace("{count}", String(question.options.length));
      rows.appendChild(summary);
      box.appendChild(rows);
    }
    question.options.forEach(function (option) {
      var row = document.createElement("div");
      row.className = "belief-row";
      var label = document.createElement("span");
      label.className = "belief-label";
      label.textContent = option.label;
      var value = document.createElement("span");
      value.className = "belief-value";
      value.textContent = draft[option.option] + "\u00a0%";
      var less = button(beliefWords["belief.less"], "chip less", function () {
        draft[option.option] = Math.max(0, draft[option.option] - 10); redraw();
      });
      less.disabled = draft[option.option] === 0;
      less.setAttribute("aria-label", option.label + " −10 %");
      var more = button(beliefWords["belief.more"], "chip more", function () {
        draft[option.option] = Math.min(100, draft[option.option] + 10); redraw();
      });
      more.disabled = total >= 100;
      more.setAttribute("aria-label", option.label + " +10 %");
      row.append(label, less, value, more);
      rows.appendChild(row);
    });
    var foot = document.createElement("div");
    foot.className = "belief-foot";
    var sum = document.createElement("span");
    sum.className = "belief-total" + (total === 100 ? " full" : "");
    sum.textContent = beliefWords["belief.total"] + beliefWords["belief.colon"] + " " + total + "\u00a0%";
    if (total !== 100) {  // in words, not in a colour: what the total is for
      var hint = document.createElement("span");
      hint.className = "belief-hint";
      hint.textContent = " (" + beliefWords["belief.until_full"] + ")";
      sum.appendChild(hint);
    }
    var clear = button(beliefWords["belief.clear"], "chip clear", function () {
      delete drafts[question.key]; redraw();
    });
    var sendButton = button(beliefWords["belief.send"], "send", function () {
      send({type: "belief", step: beliefStep, key: question.key, percents: draft});
    });
    sendButton.disabled = total !== 100;
    foot.append(sum, clear, sendButton);
    box.appendChild(foot);
    return box;
  }

  function drawBeliefs(panel) {
    beliefsBox.replaceChildren();
    if (!panel || !panel.questions.length) { beliefsBox.hidden = true; return; }
    beliefsBox.hidden = false;
    beliefStep = panel.step;
    var beliefWords = beliefWordsNow = panel.words;
    questionsNow = {};
    panel.questions.forEach(function (question) { questionsNow[question.key] = question; });
    var title = document.createElement("h2");
    title.textContent = beliefWords["belief.title"];
    var optional = document.createElement("p");
    optional.className = "belief-optional";
    optional.textContent = beliefWords["belief.optional"];
    var rule = document.createElement("p");
    rule.className = "belief-rule";
    rule.textContent = panel.sentence;
    beliefsBox.append(title, optional);
    panel.questions.forEach(function (question) { beliefsBox.appendChild(beliefQuestion(question, beliefWords)); });
    beliefsBox.appendChild(rule);
  }

  function handle(message) {
    if (message.type === "table") {
      step = message.step;
      drawBeliefs(message.beliefs);
      debrief.innerHTML = message.debrief || "";
      table.innerHTML = message.html;
      statusLine.textContent = message.status;
      statusLine.className = "status " + message.kind;
      if (message.menu && chosen.length) {  // keep the words tapped so far: ask them again at this step
        var noticeShown = notice;
        ask(chosen);
        notice = noticeShown;  // asking again is not a tap: a notice stays
        tableMenu = message.menu;
      } else {
        drawMenu(message.menu);
      }
      if (!notice) { say(""); }
      app.dataset.step = String(step);
      app.dataset.state = message.kind;
      if (message.kind !== "turn" && deadline && message.step >= deadline.step) { deadline = null; }
      showCountdown();
      wakeLock();
    } else if (message.type === "deadline") {
      deadline = {step: message.step, ends: Date.now() + 1000 * message.seconds};
      showCountdown();
    } else if (message.type === "menu") {
      if (message.step === step) { drawMenu(message); }
    } else if (message.type === "belief_received") {
      delete drafts[message.key];
      busy(false);
      say(resent[message.key] ? words["class.belief_sent_later"] : beliefWordsNow["belief.received"] || "✔");
      delete resent[message.key];
    } else if (message.type === "notice") {
      if (message.code === "time_up") { deadline = null; showCountdown(); }
      notice = true;
      say(message.text, true);
      app.dataset.notice = message.code;
    } else if (message.type === "refused") {
      if (tableMenu && message.answers === "menu" && message.step === step) { drawMenu(tableMenu); }
      busy(false);
      refocus();
      say(message.text || message.message, true);
    }
  }

  function endFor(code, reason) {
    closedForGood = true;
    deadline = null;
    showCountdown();
    wakeLock();
    if (code === 4001 || code === 4003) { keep(false); }
    say("", false);
    online.hidden = true;  // no "reconnecting": this page will not come back
    connection(code === 4003 ? "expired" : "closed",
      code === 4003 ? words["class.link_expired_help"] : (words[closeReasons[code]] || reason));
  }

  // A socket that could not open may have been refused for good (the link expired, the room closed while
  // the page was away): the page's own address says so (410, 404) without a socket.
  function again() {
    clearTimeout(retryTimer);
    if (offline) { return; }  // the `online` event reconnects
    retryTimer = setTimeout(connect, retry);
    retry = Math.min(retry * 2, 4000);
  }

  function retryOrEnd() {
    var asking = new AbortController(), timer = setTimeout(function () { asking.abort(); }, 3000);
    fetch(location.pathname, {cache: "no-store", signal: asking.signal}).then(function (response) {
      clearTimeout(timer);
      if (response.status === 410 || response.status === 404) { endFor(4003, ""); } else { again(); }
    }, function () { clearTimeout(timer); again(); });  // no answer (the server is away): try again later
  }

  // A class's table re-opened one seat larger (a late join): the server closes with 4002 and the student's own
  // link, which opens their new seat.
  function movedOn(event) {
    if (event.code !== 4002 || !/^\/c\/[A-Za-z0-9_\-]+\?lang=(en|fr)$/.test(event.reason)) { return false; }
    closedForGood = true;
    window.location.replace(event.reason);
    return true;
  }

  function connect() {
    clearTimeout(retryTimer);
    if (closedForGood) { return; }
    var scheme = location.protocol === "https:" ? "wss:" : "ws:";
    var opened = false;
    socket = new WebSocket(scheme + "//" + location.host + "/ws/" + kind + "/" + token + "?lang=" + lang +
                           (heartbeat ? "&beat=1" : ""));
    socket.onopen = function () {
      opened = true; retry = 250; lastHeard = Date.now(); setOnline(true); keep(true); connection("ok", "");
      connects += 1;
      app.dataset.connects = String(connects);  // what a script waits for: the page came back
      sendKeptBeliefs();
    };
    socket.onmessage = function (event) { lastHeard = Date.now(); handle(JSON.parse(event.data)); };
    socket.onclose = function (event) {
      setOnline(false);
      if (movedOn(event)) { return; }
      if (event.code >= 4000) { endFor(event.code, event.reason); return; }
      if (closedForGood) { return; }
      connection("lost", offline ? words["class.offline_now"] : words["class.connection_lost"]);
      if (opened) { again(); } else { retryOrEnd(); }
    };
  }

  // Drop the socket without waiting for its close (a dead line may never send one), and say so in words.
  function drop(text) {
    if (socket) {
      var dead = socket;
      dead.onclose = dead.onmessage = dead.onopen = null;
      if (dead.readyState <= 1) { dead.close(); }
      socket = null;
    }
    setOnline(false);
    connection("lost", text);
  }

  function listen() {
    if (closedForGood || !socket || socket.readyState !== 1 || Date.now() - lastHeard < 3.5 * heartbeat) { return; }
    drop(words["class.connection_lost"]);  // silent too long: its close may never come
    again();
  }

  // Back at once when the network or the tab comes back (a phone asleep lost its socket, or kept a dead one):
  // a new socket brings the table and the belief panel as they are now.
  function reconnectNow() {
    if (closedForGood || offline) { return; }
    retry = 250;
    if (socket && socket.readyState === 1 && Date.now() - lastHeard < 1.5 * heartbeat) { return; }  // alive
    drop(words["class.connection_lost"]);
    connect();
  }

  window.addEventListener("offline", function () {
    if (closedForGood) { return; }
    offline = true;
    clearTimeout(retryTimer);
    drop(words["class.offline_now"]);
  });
  window.addEventListener("online", function () { offline = false; reconnectNow(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { reconnectNow(); wakeLock(); }
  });

  // The countdown of this seat's move, in words and seconds, while it is this seat's turn.
  function showCountdown() {
    var shown = deadline !== null && app.dataset.state === "turn" && !closedForGood;
    countdownBox.hidden = !shown;
    clearInterval(countdownTimer);
    if (!shown) { delete countdownBox.dataset.seconds; return; }
    function tick() {
      var left = Math.max(0, Math.ceil((deadline.ends - Date.now()) / 1000));
      countdownBox.dataset.seconds = String(left);
      var minutes = Math.floor(left / 60), seconds = left % 60;
      countdownBox.textContent = words["class.time_left"] + words["class.colon"] + " " +
        (minutes ? minutes + "\u00a0min " + (seconds < 10 ? "0" : "") : "") + seconds + "\u00a0" + words["class.seconds"];
      countdownBox.classList.toggle("urgent", left <= 10);
    }
    tick();
    countdownTimer = setInterval(tick, 1000);
  }

  // Screen Wake Lock while the student's game goes on (where the browser has it; nothing where it has not):
  // a phone left on the desk between two turns does not sleep and lose its socket. The browser releases it
  // when the tab is hidden: it is asked again when the tab is shown.
  var lock = null, asking = false;
  function wakeLock() {
    var wanted = kind === "seat" && !closedForGood && app.dataset.state !== "over";
    if (!wanted) {
      if (lock) { lock.release().catch(function () {}); lock = null; }
      app.dataset.wakeLock = "off";
      return;
    }
    if (!("wakeLock" in navigator)) { app.dataset.wakeLock = "unavailable"; return; }
    if ((lock && !lock.released) || asking || document.visibilityState !== "visible") { return; }
    asking = true;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      asking = false;
      lock = sentinel;
      app.dataset.wakeLock = "on";
      sentinel.addEventListener("release", function () { app.dataset.wakeLock = "released"; });
      if (app.dataset.state === "over" || closedForGood) { wakeLock(); }
    }, function () { asking = false; app.dataset.wakeLock = "refused"; });
  }

  if (offline) { setOnline(false); connection("lost", words["class.offline_now"]); } else { connect(); }
  wakeLock();
  if (heartbeat) { setInterval(listen, heartbeat / 2); }
})();
