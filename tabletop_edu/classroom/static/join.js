// The join page. A seat's page keeps its own link's token in this browser's storage, under its room code
// (seat.js): typing that code again sends the token along, and the server takes the student back to their
// seat without a name. Only a seat's own token is ever stored, and only by that seat's page.
(function () {
  "use strict";
  var form = document.getElementById("join");
  var code = form.elements.code, name = form.elements.name, seat = form.elements.seat;

  function key(text) { return "tabletop_edu.seat." + text.trim().toUpperCase(); }
  function kept(text) {
    try { return text.trim() ? window.localStorage.getItem(key(text)) : null; } catch (error) { return null; }
  }

  if (form.dataset.forget) {  // the server said the kept link no longer opens a seat of that room
    try { window.localStorage.removeItem(key(form.dataset.forget)); } catch (error) { /* storage off */ }
  }

  function fill() {
    var token = kept(code.value);
    seat.value = token || "";
    name.required = !token;  // back to one's seat: no name to type
    return token;
  }

  code.addEventListener("input", fill);
  form.addEventListener("submit", fill);
  if (fill() && !form.dataset.error && !window.tabletopLanguageMoving) { form.submit(); }  // /j/CODE in the browser that sat there: straight back
})();
