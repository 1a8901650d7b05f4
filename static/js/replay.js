// The replay of a finished hand (templates/games/hand_replay.html), stepped without reloading:
// ArrowLeft/ArrowRight one call or card, Shift+Arrow (or PageUp/PageDown) one trick, Home/End
// the start and the end.  Each step is fetched from the server (?step=N&partial=1) and the step
// stays in the address (history.replaceState).  Without this script the links do the same.
(function () {
  "use strict";
  var cache = {};
  var wanted = null;

  function current() {
    return document.getElementById("replay-step");
  }

  function number(element, name) {
    return parseInt(element.getAttribute(name), 10) || 0;
  }

  function address(step) {
    var url = new URL(window.location.href);
    url.searchParams.delete("trick");
    url.searchParams.delete("partial");
    url.searchParams.set("step", String(step));
    return url;
  }

  function show(step, html) {
    var here = current();
    if (!here || wanted !== step) {
      return;
    }
    var focused = document.activeElement && here.contains(document.activeElement)
      ? document.activeElement.getAttribute("data-nav") : null;
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var next = holder.querySelector("#replay-step");
    if (!next) {
      return;
    }
    here.replaceWith(next);
    history.replaceState(null, "", address(step).toString());
    var announce = document.getElementById("replay-announce");
    var said = next.querySelector(".replay-said");
    if (announce && said) {
      announce.textContent = said.textContent;
    }
    if (focused) {
      var link = next.querySelector('[data-nav="' + focused + '"]') ||
        next.querySelector("a[data-nav]");
      if (link) {
        link.focus();
      }
    }
  }

  function go(step) {
    var here = current();
    if (!here) {
      return;
    }
    step = Math.max(0, Math.min(step, number(here, "data-last")));
    wanted = step;
    if (step === number(here, "data-step")) {
      return;
    }
    if (cache[step]) {
      show(step, cache[step]);
      return;
    }
    var url = address(step);
    url.searchParams.set("partial", "1");
    fetch(url.toString(), {credentials: "same-origin"}).then(function (response) {
      if (!response.ok) {
        throw new Error(String(response.status));
      }
      return response.text();
    }).then(function (html) {
      cache[step] = html;
      show(step, html);
    }).catch(function () {
      window.location.href = address(step).toString();  // the page itself still works
    });
  }

  // The steps a trick-by-trick move lands on (data-marks): the start, the contract set, the end
  // of each trick, the end of the hand.
  function marks(here) {
    return (here.getAttribute("data-marks") || "").split(" ").map(Number);
  }

  function target(key, shift) {
    var here = current();
    var step = wanted !== null ? wanted : number(here, "data-step");
    var last = number(here, "data-last");
    if (key === "Home") { return 0; }
    if (key === "End") { return last; }
    if (key === "PageUp" || (shift && key === "ArrowLeft")) {
      return marks(here).filter(function (m) { return m < step; }).pop() || 0;
    }
    if (key === "PageDown" || (shift && key === "ArrowRight")) {
      var later = marks(here).filter(function (m) { return m > step; });
      return later.length ? later[0] : last;
    }
    if (key === "ArrowLeft") { return step - 1; }
    if (key === "ArrowRight") { return step + 1; }
    return null;
  }

  document.addEventListener("keydown", function (event) {
    if (!current() || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    var field = event.target;
    if (field instanceof Element && field.closest("input, select, textarea, [contenteditable]")) {
      return;
    }
    var step = target(event.key, event.shiftKey);
    if (step === null) {
      return;
    }
    event.preventDefault();
    go(step);
  });

  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element ? event.target.closest("#replay-step a[data-nav]") : null;
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) {
      return;
    }
    var here = current();
    var value = new URL(link.href).searchParams.get("step");
    event.preventDefault();
    go(value === "end" ? number(here, "data-last") : parseInt(value, 10) || 0);
  });

  var keys = document.getElementById("replay-keys");
  if (keys) {
    keys.hidden = false;
  }
})();
