// Counts down the grace period of a player who dropped off (the page works without it: the
// server renders the seconds left each time the table changes).
(function () {
  function tick() {
    document.querySelectorAll("[data-countdown-to]").forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.dataset.countdownTo) - Date.now()) / 1000));
      el.textContent = String(left);
    });
  }
  setInterval(tick, 1000);
})();
