// Behaviour shared by every page, kept in a file: the Content-Security-Policy allows no inline
// script and no on*= attributes (whistclub/settings.py).
(function () {
  // <input data-select-on-click>: a click selects the whole value, ready to copy (invite links).
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (target instanceof HTMLInputElement && target.hasAttribute("data-select-on-click")) {
      target.select();
    }
  });
})();
