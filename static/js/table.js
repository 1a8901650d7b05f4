// Runs fn once the document is parsed (at once when it already is): how the parts below start.
function whenReady(fn) {
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", fn);
  } else {
    fn();
  }
}

// The trick in the middle of the table (#trick-centre).  A trick just finished is shown whole,
// its winner marked, for data-trick-pause seconds, then gathered towards its winner.  The
// server sends a new #table-state on every change, so this keeps what the page has shown
// across those swaps: if the next lead arrives during the pause (or the page never saw the
// trick complete, when the next card followed at once) the finished trick stays until the
// pause ends and the new card appears after it: one trick at a time in the middle, never two
// cards in front of one seat.  Exceptions: the viewer's own card ends the pause (they saw
// the trick, and see their card at once), a newer finished trick takes the place of the
// one shown (the newest is never cut short), and a trick the viewer must follow ends it too:
// the cards they play to are on screen at their turn.  The final trick of a hand pauses as
// the others do, the hand's result in words after it.  The "Last trick" toggle keeps its
// state too.
(function () {
  var seenKey = null;     // the newest finished trick this page knows of
  var pauseKey = null;    // the one shown now, until pauseUntil
  var pauseUntil = 0;
  var timer = null;
  var lastTrickOpen = false;
  var focusToggle = false;
  var GATHER_MS = 300;

  function centre() { return document.getElementById("trick-centre"); }

  function finishedKey(el) {
    var finished = el.querySelector(".trick-finished");
    return finished ? finished.getAttribute("data-trick-key") : null;
  }

  // The viewer's own card in the trick now in play (a watcher has no seat).
  function playedByMe(el) {
    var state = document.getElementById("table-state");
    var seat = state ? state.getAttribute("data-seat") : "";
    return seat !== "" && !!el.querySelector('.trick-now .spot[data-seat="' + seat + '"] [data-card]');
  }

  // The viewer's turn to play to a trick already led to: a card of theirs may be played now.
  function mustFollow(el) {
    return !!el.querySelector(".trick-now [data-card]") &&
      !!document.querySelector("#table-state .my-hand .card-button");
  }

  function gathered() {
    var el = centre();
    if (el) {
      el.classList.remove("pausing", "gathering");
      el.classList.add("gathered");
    }
  }

  function gather() {
    pauseKey = null;
    timer = null;
    var el = centre();
    if (!el || !el.classList.contains("pausing")) { gathered(); return; }
    el.classList.add("gathering");
    timer = setTimeout(function () { timer = null; gathered(); }, GATHER_MS);
  }

  function show(firstRender) {
    var toggle = document.getElementById("last-trick-toggle");
    if (toggle) {
      toggle.checked = lastTrickOpen;
      if (focusToggle) { toggle.focus(); }
    }
    focusToggle = false;
    var el = centre();
    if (!el) { return; }
    var key = finishedKey(el);
    var pause = parseFloat(el.getAttribute("data-trick-pause") || "0") * 1000;
    var now = Date.now();
    if (key && key !== seenKey) {
      // newer than what the page showed: pause on it (not on the first render of the page)
      if (!firstRender && pause > 0) {
        pauseKey = key;
        pauseUntil = now + pause;
      }
      seenKey = key;
    }
    if (pauseKey && key === pauseKey && (playedByMe(el) || mustFollow(el))) {
      // the viewer played to the next trick (they saw this one: show theirs), or must follow
      // the cards led to it: the trick they play to is never hidden
      pauseUntil = now;
    }
    if (pauseKey && key === pauseKey && now < pauseUntil) {
      el.classList.add("pausing");
      if (timer) { clearTimeout(timer); }
      timer = setTimeout(gather, pauseUntil - now);
    } else {
      if (timer && pauseKey) { clearTimeout(timer); timer = null; }
      pauseKey = null;
      el.classList.add("gathered");
    }
  }

  document.addEventListener("change", function (event) {
    if (event.target instanceof HTMLInputElement && event.target.id === "last-trick-toggle") {
      lastTrickOpen = event.target.checked;
    }
  });
  document.addEventListener("htmx:wsBeforeMessage", function () {
    var active = document.activeElement;
    focusToggle = !!active && active.id === "last-trick-toggle";
  });
  document.addEventListener("htmx:wsAfterMessage", function () { show(false); });
  whenReady(function () { show(true); });
})();

// The hand just played is said in the middle of the table (.last-hand-words) once its final
// trick's pause is over; its link opens the whole deal (details.result-panel) below the
// table.  The panel never opens by itself: it would lie over the next deal.
(function () {
  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element ? event.target.closest("a.whole-deal") : null;
    var panel = document.getElementById("result-panel");
    if (link && panel) { panel.open = true; }
  });
})();

// Keyboard players keep their place: the table is replaced on every change, which would drop
// the focus to the top of the page.  If the focus was on the table, it comes back to the same
// control (the same card, call or box) when the new table still has it, else to the first
// thing this player may do now (a call, a card, a box to tick), else to the table itself.
(function () {
  var wanted = null;  // how to find again the control that had the focus, or null

  function describe(el) {
    var form = el.closest("form");
    var action = form ? form.querySelector('input[name="action"]') : null;
    if (action) { return 'form input[name="action"][value="' + CSS.escape(action.value) + '"]'; }
    if (el.matches('input[name="cards"]')) { return 'input[name="cards"][value="' + CSS.escape(el.value) + '"]'; }
    if (el.id) { return "#" + CSS.escape(el.id); }
    return "";
  }

  function firstMove(state) {
    return state.querySelector(".my-hand .action-buttons button:not([aria-disabled=true])," +
                              ".my-hand .card-button, .discard-form input[type=checkbox]");
  }

  document.addEventListener("htmx:wsBeforeMessage", function () {
    var active = document.activeElement;
    var state = document.getElementById("table-state");
    wanted = null;
    if (active && state && state.contains(active)) {
      wanted = { selector: describe(active) };
    }
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (!wanted) { return; }
    var state = document.getElementById("table-state");
    if (!state || state.contains(document.activeElement)) { wanted = null; return; }
    var target = null;
    if (wanted.selector) {
      var found = state.querySelector(wanted.selector);
      // a card's form: focus its button; a call's form: its button; a box: itself
      target = found ? (found.matches("input[type=hidden]") ? found.form.querySelector("button") : found) : null;
    }
    target = target || firstMove(state);
    if (!target) {
      state.setAttribute("tabindex", "-1");
      target = state;
    }
    target.focus({ preventScroll: true });
    wanted = null;
  });
})();

// Your cards: a dimmed card tapped says why it may not be played now ("You must follow
// hearts.", the server's sentence in .why-dimmed) for a few seconds; a discard counts the
// ticked cards ("3 of 6") and its button waits for the count (without script the button
// stays usable and the server refuses a wrong count in words).
(function () {
  var hideTimer = null;
  var WHY_MS = 2500;

  document.addEventListener("click", function (event) {
    var dimmed = event.target instanceof Element ? event.target.closest(".hand-row .card-disabled") : null;
    var why = document.querySelector(".my-hand .why-dimmed");
    if (!dimmed || !why) { return; }
    why.hidden = false;
    if (hideTimer) { clearTimeout(hideTimer); }
    hideTimer = setTimeout(function () {
      hideTimer = null;
      var shown = document.querySelector(".my-hand .why-dimmed");
      if (shown) { shown.hidden = true; }
    }, WHY_MS);
  });

  function count(form) {
    var wanted = parseInt(form.getAttribute("data-count") || "0", 10);
    var chosen = form.querySelectorAll('input[name="cards"]:checked').length;
    var shown = form.querySelector(".discard-chosen");
    if (shown) { shown.textContent = (shown.getAttribute("data-of") || "").replace("{chosen}", String(chosen)); }
    var button = form.querySelector('button[type="submit"]');
    if (button) { button.disabled = chosen !== wanted; }
  }

  function countAll() { document.querySelectorAll(".discard-form[data-count]").forEach(count); }

  document.addEventListener("change", function (event) {
    var form = event.target instanceof HTMLInputElement ? event.target.closest(".discard-form[data-count]") : null;
    if (form) { count(form); }
  });
  document.addEventListener("htmx:wsAfterMessage", countAll);
  whenReady(countAll);
})();

// A short sound at your turn and when a trick is won, for a player who turned them on in
// their profile (data-sounds on .table-page; off by default).  The tones are made with the
// Web Audio API, so there is no audio file to fetch.  A browser lets a page sound only after
// the person touched it: the audio starts at their first tap or key.
(function () {
  var page = document.querySelector(".table-page[data-sounds]");
  var Context = window.AudioContext || window.webkitAudioContext;
  if (!page || !Context) { return; }
  var audio = null;
  var TURN = [[660, 0, 0.12], [880, 0.12, 0.16]];  // [frequency, start, length in seconds]
  var TRICK = [[392, 0, 0.09]];

  function wake() {
    if (!audio) {
      try { audio = new Context(); } catch (e) { return; }
    }
    if (audio.state === "suspended") { audio.resume(); }
  }

  function tone(frequency, at, length) {
    var oscillator = audio.createOscillator();
    var gain = audio.createGain();
    oscillator.type = "sine";
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.15, at + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
    oscillator.connect(gain);
    gain.connect(audio.destination);
    oscillator.start(at);
    oscillator.stop(at + length + 0.02);
  }

  function play(notes, delay) {
    if (!audio || audio.state !== "running") { return; }
    var now = audio.currentTime + (delay || 0);
    notes.forEach(function (note) { tone(note[0], now + note[1], note[2]); });
  }

  function myTurn() { return !!document.querySelector("#table-state .my-hand .seat.me.to-act"); }

  function trickKey() {
    var finished = document.querySelector("#trick-centre .trick-finished");
    return finished ? finished.getAttribute("data-trick-key") : null;
  }

  var wasMyTurn = myTurn();
  var lastTrick = trickKey();
  document.addEventListener("pointerdown", wake, true);
  document.addEventListener("keydown", wake, true);
  document.addEventListener("htmx:wsAfterMessage", function () {
    var turn = myTurn();
    var key = trickKey();
    var trickWon = !!key && key !== lastTrick;
    if (trickWon) { play(TRICK); }
    if (turn && !wasMyTurn) { play(TURN, trickWon ? 0.2 : 0); }
    wasMyTurn = turn;
    lastTrick = key;
  });
})();

// Talking at the table (#chat-lines, lines appended by the socket): a person muted here is
// muted in this browser (a list of authors kept in localStorage), their lines hidden as they
// come; "Hear everyone again" clears the list.  The box of your own words empties once sent.
(function () {
  var KEY = "whistclub-muted";

  function muted() {
    try { return JSON.parse(window.localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
  }

  function save(list) {
    try { window.localStorage.setItem(KEY, JSON.stringify(list)); } catch (e) { /* private mode */ }
  }

  function apply() {
    var list = muted();
    document.querySelectorAll("#chat-lines .chat-line").forEach(function (line) {
      line.hidden = list.indexOf(line.dataset.author) >= 0;
    });
    var note = document.querySelector(".chat-muted");
    if (note) { note.hidden = list.length === 0; }
    var log = document.querySelector(".chat-log");
    if (log) { log.scrollTop = log.scrollHeight; }
  }

  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    var mute = target ? target.closest("[data-mute]") : null;
    if (mute) {
      var list = muted();
      if (list.indexOf(mute.dataset.mute) < 0) { list.push(mute.dataset.mute); }
      save(list);
      apply();
    } else if (target && target.closest("[data-unmute-all]")) {
      save([]);
      apply();
    }
  });
  document.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target instanceof Element ? event.target.closest(".chat-form") : null;
    if (form) { form.reset(); }
  });
  document.addEventListener("htmx:wsAfterMessage", apply);
  whenReady(apply);
})();

// The socket's state in words: while it is closed (the server restarting, the network gone) a
// line says so, shown after a second so that a quick reconnection does not flash it; the
// extension reconnects by itself and the server sends the table as it is now.
(function () {
  var timer = null;
  function line() { return document.getElementById("connection-lost"); }
  document.body.addEventListener("htmx:wsClose", function () {
    if (timer === null) {
      timer = setTimeout(function () { var el = line(); if (el) { el.hidden = false; } }, 1000);
    }
  });
  document.body.addEventListener("htmx:wsOpen", function () {
    clearTimeout(timer);
    timer = null;
    var el = line();
    if (el) { el.hidden = true; }
  });
})();
