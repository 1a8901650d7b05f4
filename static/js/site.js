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

  // <button data-copy="ID" hidden>: copies the value of the field #ID (invite links).  Shown
  // only where a script runs; without one the field is still there to select and copy.
  function copied(button) {
    var label = button.getAttribute("data-copied");
    if (label) {
      button.textContent = label;
    }
  }
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    button.hidden = false;
  });
  document.addEventListener("click", function (event) {
    var button = event.target instanceof Element ? event.target.closest("button[data-copy]") : null;
    if (!button) {
      return;
    }
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) {
      return;
    }
    field.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(function () { copied(button); },
        function () { if (document.execCommand("copy")) { copied(button); } });
    } else if (document.execCommand("copy")) {
      copied(button);
    }
  });

  // <button data-print hidden>: prints the page (standings); shown only where a script runs.
  document.querySelectorAll("button[data-print]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  });

  // A form swapped in by htmx with a refusal (an error beside a field, or the question "this
  // hand ends the match"): on a phone the swap leaves the page where it was, often far below
  // the message, so the first one is brought into view and its field focused.
  document.body.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.target;
    var swapped = target && target.isConnected ? target : document.getElementById("deal-entry");
    if (!swapped) {
      return;
    }
    var problem = swapped.querySelector(".errorlist, .ends-the-match");
    if (!problem) {
      // The round's last deal entered: the form folds away under "Round 1 done", which the
      // swap would leave above a phone's screen.
      var done = swapped.querySelector(".round-done");
      var heading = done && swapped.querySelector("h2");
      if (heading && heading.getBoundingClientRect().top < 0) {
        heading.scrollIntoView({block: "start"});
      }
      return;
    }
    problem.scrollIntoView({block: "center"});
    var field = problem.closest("div") && problem.closest("div").querySelector("input, select, button");
    if (field && !problem.classList.contains("nonfield")) {
      field.focus({preventScroll: true});
    }
  });

  // A five-seat table's line (leagues/paper/common.py): the dealer chosen sits the deal out,
  // so their buttons in the declarer, partner and revoke rows are disabled (and dimmed by
  // static/css/leagues.css), a choice of them undone; the others are enabled again.
  var SEAT_FACTS = ["declarer", "partner", "revoke"];
  function markTheSitter(form) {
    var sitter = form.querySelector("input[name=sits_out]:checked");
    SEAT_FACTS.forEach(function (name) {
      form.querySelectorAll("input[type=radio][name=" + name + "]").forEach(function (input) {
        var sitsOut = sitter !== null && input.value === sitter.value;
        input.disabled = sitsOut;
        if (sitsOut && input.checked) {
          input.checked = false;
        }
      });
    });
  }
  function markEverySitter(root) {
    root.querySelectorAll("form").forEach(function (form) {
      if (form.querySelector("input[name=sits_out]")) {
        markTheSitter(form);
      }
    });
  }
  markEverySitter(document);
  document.body.addEventListener("htmx:afterSwap", function () {
    markEverySitter(document);  // the swapped form is a new one
  });
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (input instanceof HTMLInputElement && input.name === "sits_out" && input.form) {
      markTheSitter(input.form);
    }
  });

  // <form data-errors-go-on-change>: the errors beside its fields were about what was sent;
  // once the person changes an answer they are out of date (a partner refused for Prop and Cop
  // means nothing after a switch to Solo), and the next send checks everything again.
  document.addEventListener("change", function (event) {
    var form = event.target instanceof Element ? event.target.closest("form[data-errors-go-on-change]") : null;
    if (!form) {
      return;
    }
    form.querySelectorAll(".errorlist").forEach(function (list) { list.remove(); });
    form.querySelectorAll("[aria-invalid]").forEach(function (field) {
      field.removeAttribute("aria-invalid");
    });
  });

  // The site's one countdown.  Two kinds of clock, by where their time comes from:
  // - <span data-seconds-left="N">12:34</span>: N seconds left when the server made the page or
  //   the fragment (an event's round), counted down from when this page first saw it, never
  //   from the device's clock, which may be wrong: the server's time is the truth, and a
  //   reload gives its count again.  Written "m:ss".  Inside [data-reload-when-up], the page is
  //   read again a few seconds after it reaches 0 (the next round, or what became of the last).
  // - <span data-countdown-to="2030-01-07T20:15:30+00:00">12</span>: the time left before a
  //   computer plays a move (a dropped-off player's grace, the move clock), counted to that
  //   instant by the device's clock, in plain seconds.  A live table sends one fragment to
  //   every socket of a version, also to one that connects later, so the seconds in it may be
  //   old; the instant is not.  The server writes the seconds too: the page works without this.
  function clockText(left) {
    var hours = Math.floor(left / 3600);
    var minutes = Math.floor((left % 3600) / 60);
    var seconds = left % 60;
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    return hours ? hours + ":" + pad(minutes) + ":" + pad(seconds) : minutes + ":" + pad(seconds);
  }
  function secondsLeft(clock, now) {
    if (clock.dataset.countdownTo) {
      return (Date.parse(clock.dataset.countdownTo) - Date.now()) / 1000;
    }
    if (!clock.dataset.seenAt) {
      clock.dataset.seenAt = String(now);
    }
    return Number(clock.dataset.secondsLeft) - (now - Number(clock.dataset.seenAt)) / 1000;
  }
  var reloading = false;
  function tick() {
    var now = performance.now();
    document.querySelectorAll("[data-seconds-left], [data-countdown-to]").forEach(function (clock) {
      var left = Math.max(0, Math.round(secondsLeft(clock, now)));
      clock.textContent = clock.dataset.countdownTo ? String(left) : clockText(left);
      if (left === 0 && !reloading && clock.closest("[data-reload-when-up]")) {
        reloading = true;
        setTimeout(function () { window.location.reload(); }, 5000);
      }
    });
  }
  if (document.querySelector("[data-seconds-left], [data-countdown-to], [hx-ext]")) {
    tick();  // seen now: the page was made a moment ago
    setInterval(tick, 1000);
    // a table's fragment swapped in over its socket: its clock is seen now, not at the tick
    document.addEventListener("htmx:load", tick);
    document.addEventListener("htmx:wsAfterMessage", tick);
  }
})();
