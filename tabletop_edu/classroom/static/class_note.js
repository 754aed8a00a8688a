// The teacher's message to every student of a class, on a seat's page or a waiting page: a long poll for the
// class's message (POST /note with the page's token in the body, never in an address a log keeps), shown as text in
// a banner at the top of the page, in the page's language.
// A seat's page whose student has a table of a newer round hears where (`next`) and goes there.
// A page of a room that is of no class hears 404 once and stops asking. A failed ask is retried after a growing
// wait, or at once when the browser says the network is back (its "online" event).
(function () {
  "use strict";
  var holder = document.getElementById("app") || document.getElementById("waiting");
  if (!holder || (holder.dataset.kind && holder.dataset.kind !== "seat")) { return; }
  var token = holder.dataset.token, lang = holder.dataset.lang || "en", seen = 0, retry = 1000;
  var later = null, back = false;  // the retry's timer; the network came back while an ask was out
  var banner = document.createElement("aside");
  banner.id = "class-note";
  banner.className = "class-note";
  banner.setAttribute("role", "status");
  banner.style.cssText = "display:none;margin:.5rem auto;max-width:60rem;padding:.75rem 1rem;" +
    "border:3px solid #0d47a1;border-radius:.5rem;background:#e3f2fd;color:#0b2545;font-size:1.15rem;" +
    "line-height:1.4;overflow-wrap:anywhere;max-height:30vh;overflow:auto";
  var title = document.createElement("strong"), text = document.createElement("span");
  banner.append(title, text);
  var main = document.querySelector("main");
  main.insertBefore(banner, main.firstChild);

  function show(note) {
    seen = note.number;
    banner.style.display = note.text ? "block" : "none";
    banner.dataset.number = String(note.number);
    title.textContent = note.title + (note.at_text ? " (" + note.since + " " + note.at_text + ")" : "") + " ";
    text.textContent = note.text;
  }

  function ask() {
    later = null;
    fetch("/note?lang=" + lang, {method: "POST", cache: "no-store",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify({token: token, seen: seen})})
      .then(function (response) {
        if (response.status === 404) { return null; }
        if (!response.ok) { throw new Error(String(response.status)); }
        return response.json().then(function (note) {
          if (note.next) { window.location.replace(note.next); return; }  // a new round: the student's new table
          retry = 1000; back = false; show(note); setTimeout(ask, 50);
        });
      })
      .catch(function () {
        if (back) { back = false; retry = 1000; ask(); return; }
        later = setTimeout(ask, retry);
        retry = Math.min(retry * 2, 10000);
      });
  }
  // The network back (a phone out of a tunnel): ask at once rather than at the end of the wait, also when the
  // ask that failed has not said so yet (it then asks again as it fails).
  window.addEventListener("online", function () {
    if (later === null) { back = true; return; }
    clearTimeout(later);
    retry = 1000;
    ask();
  });
  ask();
})();
