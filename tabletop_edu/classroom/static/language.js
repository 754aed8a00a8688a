// The student's language, kept in this browser (no cookie): a page opened with ?lang=xx remembers it, and a page
// opened without one (the join page, a new link from the teacher, the QR code) opens again in that language.
// A form's answer (a refused name, a refused code) is left as it is: reloading it would lose what it says; so is
// the projector, which speaks the room's language (or the teacher's choice), not a student's.
(function () {
  "use strict";
  var key = "tabletop_edu.lang", asked = new URLSearchParams(location.search).get("lang");
  var shown = document.documentElement.lang;
  if (document.body.classList.contains("projector")) { return; }
  try {
    if (asked === "en" || asked === "fr") { window.localStorage.setItem(key, asked); return; }
    var kept = window.localStorage.getItem(key);
    var answer = location.pathname === "/join" || document.querySelector("[role=alert].error, p.error") !== null;
    if ((kept === "en" || kept === "fr") && kept !== shown && !answer) {
      window.tabletopLanguageMoving = true;  // join.js does not send its form meanwhile
      var address = new URL(location.href);
      address.searchParams.set("lang", kept);
      location.replace(address.toString());
    }
  } catch (error) { /* storage off: the page's own language stays */ }
})();
